// Events are recorded in PostgreSQL in the same database transaction as the change they describe;
// the caller then hands the returned id to the `dispatchEvent` activity once that transaction commits.
// What each kind of event holds is its owner's: transactions/events.ts, meds/events.ts, refunds/events.ts,
// recurrences/events.ts.
import type { TxSql } from '../db/database.js';

export interface EventRecord {
  id: string;
  event: string;
  accountId: string;
  transactionId?: string | null;
  medId?: string | null;
  recurrenceId?: string | null;
  data: unknown;
}

/** Inserts the event once (a retried activity records nothing new) and returns its id. */
export async function recordEvent(tx: TxSql, record: EventRecord): Promise<string> {
  await recordEvents(tx, [record]);
  return record.id;
}

/** Inserts the events, each once, in one statement. */
export async function recordEvents(tx: TxSql, records: EventRecord[]): Promise<void> {
  const createdAt = new Date().toISOString();
  const payloads = records.map((record) => JSON.stringify({ id: record.id, event: record.event, createdAt, data: record.data }));
  await tx`
    insert into events (id, account_id, type, transaction_id, med_id, recurrence_id, payload)
    select id, account_id, type, transaction_id, med_id, recurrence_id, payload::jsonb
      from unnest(${records.map((r) => r.id)}::text[], ${records.map((r) => r.accountId)}::text[], ${records.map((r) => r.event)}::text[],
                  ${records.map((r) => r.transactionId ?? null)}::text[], ${records.map((r) => r.medId ?? null)}::text[],
                  ${records.map((r) => r.recurrenceId ?? null)}::text[], ${payloads}::text[])
           as e(id, account_id, type, transaction_id, med_id, recurrence_id, payload)
    on conflict (id) do nothing`;
}
