// A recurrence's event: `recurrence.updated` with id `evt_<recurrence id>_<status>` and the full
// Recurrence as `data`, recorded with the change (its webhookUrl receives it, as a charge's does).
import type { TxSql } from '../db/database.js';
import type { RecurrenceRow } from './row.js';
import { serializeRecurrence } from './serialize.js';

export const recurrenceEventId = (row: RecurrenceRow) => `evt_${row.id}_${row.status}`;

/** Inserts the event once (a retried activity records nothing new) and returns its id. */
export async function recordRecurrenceEvent(tx: TxSql, row: RecurrenceRow): Promise<string> {
  const id = recurrenceEventId(row);
  const payload = { id, event: 'recurrence.updated', createdAt: new Date().toISOString(), data: serializeRecurrence(row) };
  await tx`
    insert into events (id, account_id, type, recurrence_id, payload)
    values (${id}, ${row.accountId}, 'recurrence.updated', ${row.id}, ${tx.json(payload as never)})
    on conflict (id) do nothing`;
  return id;
}
