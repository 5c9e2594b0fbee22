// Events are recorded in PostgreSQL in the same database transaction as the change they describe;
// the caller then hands the returned id to the `dispatchEvent` activity once that transaction commits.
import type { TxSql } from '../db/database.js';
import type { MedRow } from '../meds/row.js';
import { serializeMed } from '../meds/serialize.js';
import { serializeTransaction } from '../transactions/serialize.js';
import type { TransactionRow, TransactionStatus } from '../transactions/row.js';

export interface EventRecord {
  id: string;
  event: string;
  accountId: string;
  transactionId?: string | null;
  medId?: string | null;
  data: unknown;
}

/** Inserts the event once (a retried activity records nothing new) and returns its id. */
export async function recordEvent(tx: TxSql, record: EventRecord): Promise<string> {
  const payload = { id: record.id, event: record.event, createdAt: new Date().toISOString(), data: record.data };
  await tx`
    insert into events (id, account_id, type, transaction_id, med_id, payload)
    values (${record.id}, ${record.accountId}, ${record.event}, ${record.transactionId ?? null}, ${record.medId ?? null}, ${JSON.stringify(payload)}::text::jsonb)
    on conflict (id) do nothing`;
  return record.id;
}

export const transactionEventId = (transactionId: string, status: TransactionStatus) => `evt_${transactionId}_${status}`;

/** `transaction.<status>` with id `evt_<transaction id>_<status>` and the full Transaction as `data`. */
export function recordTransactionEvent(tx: TxSql, row: TransactionRow): Promise<string> {
  return recordEvent(tx, {
    id: transactionEventId(row.id, row.status),
    event: `transaction.${row.status}`,
    accountId: row.accountId,
    transactionId: row.id,
    data: serializeTransaction(row),
  });
}

/** What happened to a MED: `created` is `med.created`; every later change is `med.updated`. */
export type MedChange = 'created' | 'overdue' | 'accepted' | 'rejected';

/** `med.created` / `med.updated` with id `evt_<med id>_<change>` and the MED as `data`. */
export function recordMedEvent(tx: TxSql, med: MedRow, change: MedChange): Promise<string> {
  return recordEvent(tx, {
    id: medEventId(med.id, change),
    event: change === 'created' ? 'med.created' : 'med.updated',
    accountId: med.accountId,
    transactionId: med.transactionId,
    medId: med.id,
    data: serializeMed(med),
  });
}

export const medEventId = (medId: string, change: MedChange) => `evt_${medId}_${change}`;
