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
  await recordEvents(tx, [record]);
  return record.id;
}

/** Inserts the events, each once, in one statement. */
async function recordEvents(tx: TxSql, records: EventRecord[]): Promise<void> {
  const createdAt = new Date().toISOString();
  const payloads = records.map((record) => JSON.stringify({ id: record.id, event: record.event, createdAt, data: record.data }));
  await tx`
    insert into events (id, account_id, type, transaction_id, med_id, payload)
    select id, account_id, type, transaction_id, med_id, payload::jsonb
      from unnest(${records.map((r) => r.id)}::text[], ${records.map((r) => r.accountId)}::text[], ${records.map((r) => r.event)}::text[],
                  ${records.map((r) => r.transactionId ?? null)}::text[], ${records.map((r) => r.medId ?? null)}::text[], ${payloads}::text[])
           as e(id, account_id, type, transaction_id, med_id, payload)
    on conflict (id) do nothing`;
}

export const transactionEventId = (transactionId: string, status: TransactionStatus) => `evt_${transactionId}_${status}`;

const transactionEvent = (row: TransactionRow): EventRecord => ({
  id: transactionEventId(row.id, row.status),
  event: `transaction.${row.status}`,
  accountId: row.accountId,
  transactionId: row.id,
  data: serializeTransaction(row),
});

/** `transaction.<status>` with id `evt_<transaction id>_<status>` and the full Transaction as `data`. */
export function recordTransactionEvent(tx: TxSql, row: TransactionRow): Promise<string> {
  return recordEvent(tx, transactionEvent(row));
}

/** recordTransactionEvent for several rows in one statement; their ids in the rows' order. */
export async function recordTransactionEvents(tx: TxSql, rows: TransactionRow[]): Promise<string[]> {
  const records = rows.map(transactionEvent);
  await recordEvents(tx, records);
  return records.map((record) => record.id);
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
