// A MED's events: `med.created`, then `med.updated` on every change, recorded with it (events/record.ts).
import type { TxSql } from '../db/database.js';
import { recordEvent } from '../events/record.js';
import type { MedRow } from './row.js';
import { serializeMed } from './serialize.js';

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
