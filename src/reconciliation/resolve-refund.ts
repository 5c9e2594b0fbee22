// The devolução (natureza ORIGINAL) of an item resolved `refund`: the money it holds in suspense goes
// back to the payer through the route. The route is asked once, by the item's id; its answer settles
// the devolução: approved moves the money out of suspense through Pix clearing; failed leaves it
// held, and an operator is alerted. The route's records settle it too, in a later run.
import { platformAccount, suspenseAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import type { Deps } from '../runtime/deps.js';
import type { Outcome } from './match.js';
import { toItemRow, type RawItemRow } from './repository.js';

/** Settles the item's devolução once; whether it ended as `outcome` (false: it had already ended otherwise). */
export function settleSuspenseRefund(
  deps: Pick<Deps, 'sql' | 'log'>,
  itemId: string,
  outcome: Outcome,
  reason: string | null,
): Promise<boolean> {
  return deps.sql.begin(async (tx) => {
    const [raw] = await tx<RawItemRow[]>`select * from reconciliation_items where id = ${itemId} for update`;
    const item = raw && toItemRow(raw);
    if (item?.resolution?.action !== 'refund') return false;
    const { refund } = item.resolution;
    if (refund.status !== 'pending') return refund.status === outcome;
    if (outcome === 'approved') {
      await post(tx, {
        key: `reconciliation:${item.id}:refund`,
        transactionId: item.transactionId,
        description: `Conciliação ${item.id}: devolução ao pagador do valor em suspense`,
        entries: [
          { account: suspenseAccount(item.route), amount: -item.heldCents },
          { account: platformAccount('pix_clearing', item.endToEndId ?? item.id), amount: item.heldCents },
        ],
      });
    } else {
      deps.log.error(
        { alert: 'suspense_refund_failed', itemId, route: item.route, heldCents: item.heldCents, reason },
        'alert: the devolução from suspense was not made; the money stays in suspense',
      );
    }
    const settled = { action: 'refund', refund: { status: outcome, reason } };
    await tx`
      update reconciliation_items
      set resolution = ${tx.json(settled)}, held_amount = ${outcome === 'approved' ? 0 : item.heldCents}
      where id = ${itemId}`;
    return true;
  }) as Promise<boolean>;
}
