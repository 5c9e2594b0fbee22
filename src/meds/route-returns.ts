// MED devoluções a PSP reports on a Pix it received for a charge (ChargeRoute.medReturns): the PSP
// already sent the money back to the payer, so each devolução is recorded once (keyed by its id) as
// an accepted MED on that charge, in one PostgreSQL transaction: the MED opened (`med.created`), the
// account debited (available → Pix clearing: it pays back what the PSP returned), the MED accepted
// (`med.updated`), and the charge's returned amount recorded (`refunded` with `transaction.refunded`
// once the whole amount went back, else `approved` with refundedAmount).
import { createHash } from 'node:crypto';
import type { Sql } from '../db/database.js';
import { medEventId, recordMedEvent } from './events.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import { lockReturnBudget } from '../returns/budget.js';
import type { Logger } from '../runtime/log.js';
import { countStatusReached } from '../metrics/transactions.js';
import type { RouteMedReturn } from '../pix-routes/types.js';
import { becameRefunded, recordReturn, returnEventIds } from './decide.js';
import { lockedAvailable } from './open.js';
import { findMedById } from './repository.js';

/** The approved charge whose payment is the received Pix `endToEndId` on `route`, or null. */
export async function chargeOfEndToEndId(sql: Sql, route: string, endToEndId: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`
    select id from transactions
    where end_to_end_id = ${endToEndId} and acquirer = ${route} and type = 'payment' and status in ('approved', 'refunded')`;
  return row?.id ?? null;
}

/** A MED's id derived from the charge and the devolução: the same devolução always names the same MED. */
export function medIdOfReturn(transactionId: string, returnId: string): string {
  return `med_${createHash('sha256').update(`${transactionId}:${returnId}`).digest('hex').slice(0, 24)}`;
}

/** Records the devolução once; answers the events of its MED (recorded now or by an earlier attempt) to dispatch. */
export async function recordRouteMedReturn(
  deps: { sql: Sql; log: Logger },
  transactionId: string,
  devolucao: RouteMedReturn,
): Promise<string[]> {
  const medId = medIdOfReturn(transactionId, devolucao.id);
  let refunded = false;
  const recorded = await deps.sql.begin(async (tx): Promise<string[]> => {
    const charge = await lockReturnBudget(tx, transactionId);
    if (!charge || charge.type !== 'payment' || !['approved', 'refunded'].includes(charge.status))
      throw new Error(`no approved charge ${transactionId}`);
    const recordedBefore = await findMedById(tx, medId);
    if (recordedBefore) return [medEventId(medId, 'created'), medEventId(medId, 'accepted'), ...(await returnEventIds(tx, recordedBefore))];
    const remaining = charge.leftCents;
    const amountCents = Math.min(devolucao.amountCents, remaining);
    if (amountCents <= 0 || amountCents < devolucao.amountCents) {
      deps.log.error(
        {
          alert: 'med_return_exceeds_charge',
          transactionId,
          returnId: devolucao.id,
          returnedCents: devolucao.amountCents,
          remainingCents: remaining,
        },
        'alert: the PSP returned more than the charge has left to return; recorded up to what remains',
      );
      if (amountCents <= 0) return [];
    }

    // Stored decided at once (an open MED of another dispute may exist: one open per charge); `med.created`
    // shows it as it was opened, before the acceptance.
    await tx`
      insert into meds (id, account_id, transaction_id, status, reason, amount, retained_amount, returned_amount, deadline_at, decided_at, route_return_id)
      values (${medId}, ${charge.accountId}, ${transactionId}, 'accepted', ${devolucao.nature}, ${amountCents}, ${amountCents}, ${amountCents},
              ${devolucao.returnedAt}, ${devolucao.returnedAt}, ${devolucao.id})`;
    const accepted = (await findMedById(tx, medId))!;
    const eventIds = [await recordMedEvent(tx, { ...accepted, status: 'open', returnedAmountCents: 0, decidedAt: null }, 'created')];

    // The account pays back what the PSP returned, as far as its available balance goes; the rest is the platform's loss.
    const debitCents = Math.min(amountCents, await lockedAvailable(tx, charge.accountId));
    if (debitCents < amountCents) {
      deps.log.error(
        { alert: 'med_return_shortfall', transactionId, medId, shortfallCents: amountCents - debitCents },
        'alert: the account could not pay back the whole MED devolução the PSP made',
      );
    }
    if (debitCents > 0) {
      await post(tx, {
        key: `med:${medId}:return`,
        transactionId,
        description: `MED ${medId}: devolução ao pagador feita pelo PSP (${devolucao.id})`,
        entries: [
          { account: customerAccount(charge.accountId, 'available'), amount: -debitCents },
          { account: platformAccount('pix_clearing', transactionId), amount: debitCents },
        ],
      });
    }
    const returned = await recordReturn(tx, accepted);
    refunded = becameRefunded(accepted, returned);
    eventIds.push(...returned);
    eventIds.push(await recordMedEvent(tx, accepted, 'accepted'));
    return eventIds;
  });
  if (refunded) countStatusReached({ type: 'payment', status: 'refunded' });
  return recorded;
}
