// A recurrence's event: `recurrence.updated` with id `evt_<recurrence id>_<status>` and the full
// Recurrence as `data`, recorded with the change (events/record.ts; its webhookUrl receives it, as a charge's does).
import type { TxSql } from '../db/database.js';
import { recordEvent } from '../events/record.js';
import type { RecurrenceRow } from './row.js';
import { serializeRecurrence } from './serialize.js';

export const recurrenceEventId = (row: RecurrenceRow) => `evt_${row.id}_${row.status}`;

/** Records the event once (a retried activity records nothing new) and returns its id. */
export function recordRecurrenceEvent(tx: TxSql, row: RecurrenceRow): Promise<string> {
  return recordEvent(tx, {
    id: recurrenceEventId(row),
    event: 'recurrence.updated',
    accountId: row.accountId,
    recurrenceId: row.id,
    data: serializeRecurrence(row),
  });
}
