// The devolução (natureza ORIGINAL) of an item resolved `refund`: the money it holds in suspense goes
// back to the payer through the route. The route is asked once, by the item's id; its answer settles
// the devolução: approved moves the money out of suspense through Pix clearing; failed leaves it held
// and puts the item back in front of an operator (`open` again, its resolution showing the failed
// devolução, to be credited to an account), with an alert. The route's records settle it too, in a
// later run.
import { platformAccount, suspenseAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import type { RefundRoute, RefundState, RouteRefundRequest } from '../pix-routes/refund-route.js';
import { refundRoute } from '../pix-routes/registry.js';
import type { Deps } from '../runtime/deps.js';
import type { RouteRefundState } from '../refunds/contract.js';
import type { SuspenseRefundSent } from './suspense-refund.contract.js';
import type { Outcome } from './match.js';
import { findItem, toItemRow, type ItemRow, type RawItemRow } from './repository.js';

export interface SuspenseRefundDeps extends Pick<Deps, 'sql'> {
  refundRoute(name: string): RefundRoute;
}

/** The process's routes that return a received Pix, by name (RouteRefused for one that cannot). */
export const refundRoutes =
  (deps: Deps) =>
  (name: string): RefundRoute =>
    refundRoute({ ...deps, simulatorTransferDelayMs: deps.config.simulatorTransferDelayMs }, name);

/** What the route is asked: the devolução of the Pix the item is about, by the item's id, of what it holds. */
async function routeRequest(deps: SuspenseRefundDeps, itemId: string): Promise<{ item: ItemRow; request: RouteRefundRequest }> {
  const item = await findItem(deps.sql, itemId);
  if (item?.resolution?.action !== 'refund') throw new Error(`item ${itemId} is not resolved refund`);
  const request = {
    refundId: item.id,
    endToEndId: item.endToEndId,
    amountCents: item.heldCents > 0 ? item.heldCents : item.pspAmountCents!,
    description: 'Devolução de Pix recebido sem cobrança',
  };
  return { item, request };
}

function travelling(state: RefundState): RouteRefundState {
  if (state.status === 'approved') return { status: 'approved', settledAt: state.settledAt.toISOString() };
  if (state.status === 'failed') return { status: 'failed', reason: state.reason };
  return { status: 'pending' };
}

/** Asks the item's route for the devolução (idempotent by the item's id at the route). */
export async function sendSuspenseRefund(deps: SuspenseRefundDeps, itemId: string): Promise<SuspenseRefundSent> {
  const { item, request } = await routeRequest(deps, itemId);
  const route = deps.refundRoute(item.route);
  return { state: travelling(await route.sendRefund(request)), remote: route.remote };
}

export async function suspenseRefundStateAtRoute(deps: SuspenseRefundDeps, itemId: string): Promise<RouteRefundState> {
  const { item, request } = await routeRequest(deps, itemId);
  return travelling(await deps.refundRoute(item.route).refundStatus(request));
}

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
        'alert: the devolução from suspense was not made; the money stays in suspense and the item is open again',
      );
    }
    const settled = { action: 'refund', refund: { status: outcome, reason } };
    // A failed devolução did not resolve the item: its money is still held, so it is open again.
    await tx`
      update reconciliation_items
      set resolution = ${tx.json(settled)}, held_amount = ${outcome === 'approved' ? 0 : item.heldCents},
          status = ${outcome === 'approved' ? 'resolved' : 'open'}, resolved_at = case when ${outcome} = 'approved' then resolved_at end
      where id = ${itemId}`;
    return true;
  }) as Promise<boolean>;
}
