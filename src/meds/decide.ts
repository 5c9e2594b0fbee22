// Deciding a MED, in one PostgreSQL transaction. Accepted: what was retained goes back to the payer
// (retained → Pix clearing), the charge records the returned amount and becomes `refunded` once
// everything the payer paid has been returned (a partial return keeps it `approved`). Rejected:
// the retention is released (retained → available). Either way `med.updated` is recorded.
import type { Sql, TxSql } from '../db/database.js';
import { recordTransactionEvent, transactionEventId } from '../transactions/events.js';
import { medEventId, recordMedEvent } from './events.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import { returnDepositIdOf, returnToInternalPayer } from '../returns/payer.js';
import { countStatusReached } from '../metrics/transactions.js';
import { toTransactionRow, type RawTransactionRow } from '../transactions/row.js';
import { findMedById } from './repository.js';
import { medNotFound, medRefused } from './results.js';
import type { MedRow } from './row.js';
import type { MedChangeResult, MedOutcome } from './contract.js';

function settleRetention(tx: TxSql, med: MedRow, outcome: MedOutcome) {
  const retained = customerAccount(med.accountId, 'retained');
  const destination =
    outcome === 'accepted' ? platformAccount('pix_clearing', med.transactionId) : customerAccount(med.accountId, 'available');
  return post(tx, {
    key: `med:${med.id}:${outcome === 'accepted' ? 'return' : 'release'}`,
    transactionId: med.transactionId,
    description: outcome === 'accepted' ? `MED ${med.id}: devolução ao pagador` : `MED ${med.id}: liberação da retenção`,
    entries: [
      { account: retained, amount: -med.retainedAmountCents },
      { account: destination, amount: med.retainedAmountCents },
    ],
  });
}

/**
 * Records the returned amount on the charge; answers its `transaction.refunded` when it became refunded,
 * and the deposit's event when the payer was another account of this engine (src/returns/payer.ts).
 */
export async function recordReturn(tx: TxSql, med: MedRow): Promise<string[]> {
  const [raw] = await tx<RawTransactionRow[]>`
    update transactions
    set refunded_amount = refunded_amount + ${med.retainedAmountCents},
        status = case when refunded_amount + ${med.retainedAmountCents} >= coalesce(paid_amount, amount) then 'refunded' else status end,
        updated_at = now()
    where id = ${med.transactionId}
    returning *`;
  const row = toTransactionRow(raw!);
  const refunded = row.status === 'refunded' ? [await recordTransactionEvent(tx, row)] : [];
  return [...refunded, ...(await returnToInternalPayer(tx, row, med.id, med.retainedAmountCents))];
}

/** The events an accepted MED's return recorded, for a repeated request: the charge's refund and the payer's deposit that exist. */
export async function returnEventIds(tx: TxSql, med: MedRow): Promise<string[]> {
  const ids = [transactionEventId(med.transactionId, 'refunded'), transactionEventId(returnDepositIdOf(med.id), 'approved')];
  const found = await tx<{ id: string }[]>`select id from events where id = any(${ids}::text[])`;
  return ids.filter((id) => found.some((f) => f.id === id));
}

/** Whether the events recordReturn answered include the charge becoming refunded. */
export const becameRefunded = (med: MedRow, eventIds: string[]): boolean =>
  eventIds.includes(transactionEventId(med.transactionId, 'refunded'));

/** Idempotent: repeating the decision a MED already has answers it again; the other decision is refused. */
export async function decideMed(sql: Sql, medId: string, outcome: MedOutcome): Promise<MedChangeResult> {
  let refunded = false;
  const decided = await sql.begin(async (tx): Promise<MedChangeResult> => {
    const [locked] = await tx`select id from meds where id = ${medId} for update`;
    if (!locked) return medNotFound();
    const med = (await findMedById(tx, medId))!;
    if (med.status === outcome) {
      const returned = outcome === 'accepted' ? await returnEventIds(tx, med) : [];
      return { ok: true, eventIds: [...returned, medEventId(med.id, outcome)] };
    }
    if (med.status !== 'open') return medRefused(`A MED já foi decidida (${med.status})`);

    const eventIds: string[] = [];
    if (med.retainedAmountCents > 0) {
      await settleRetention(tx, med, outcome);
      if (outcome === 'accepted') {
        const returned = await recordReturn(tx, med);
        refunded = becameRefunded(med, returned);
        eventIds.push(...returned);
      }
    }
    await tx`
      update meds set status = ${outcome}, decided_at = now(), updated_at = now(),
        returned_amount = ${outcome === 'accepted' ? med.retainedAmountCents : 0}
      where id = ${medId}`;
    const decided = (await findMedById(tx, medId))!;
    eventIds.push(await recordMedEvent(tx, decided, outcome));
    return { ok: true, eventIds };
  });
  if (refunded) countStatusReached({ type: 'payment', status: 'refunded' });
  return decided;
}
