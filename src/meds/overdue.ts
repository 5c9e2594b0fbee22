// The decision deadline of an open MED passed: the MED is flagged `overdue` and `med.updated` is
// recorded, so operators (and the account) learn it; the MED stays open until someone decides.
import type { Sql } from '../db/database.js';
import { recordMedEvent } from './events.js';
import { findMedById } from './repository.js';
import type { MedRow } from './row.js';

/** Null when the MED was decided in the meantime. Idempotent. */
export function markMedOverdue(sql: Sql, medId: string): Promise<{ med: MedRow; eventId: string } | null> {
  return sql.begin(async (tx) => {
    const [flagged] = await tx`
      update meds set overdue = true, updated_at = case when overdue then updated_at else now() end
      where id = ${medId} and status = 'open' returning id`;
    if (!flagged) return null;
    const med = (await findMedById(tx, medId))!;
    return { med, eventId: await recordMedEvent(tx, med, 'overdue') };
  });
}
