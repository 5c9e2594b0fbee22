// The Idempotency-Key of POST /admin/simulator/meds: the first request under a key chooses the MED id
// and records its fingerprint; a repeat with the same fingerprint gets that MED id back, another
// fingerprint is the spec's 409 `idempotency_conflict`.
import { compareWithExisting, fingerprintOf, type IdempotencyOutcome } from '../transactions/idempotency.js';
import type { Sql } from '../db/database.js';
import type { MedNotification } from './workflow-client.js';

export interface BoundMed {
  medId: string;
  outcome: IdempotencyOutcome;
}

export async function bindOpenRequest(sql: Sql, key: string, notification: MedNotification, newMedId: string): Promise<BoundMed> {
  const fingerprint = fingerprintOf('med', { ...notification });
  const [inserted] = await sql<{ medId: string }[]>`
    insert into med_open_requests (idempotency_key, med_id, fingerprint) values (${key}, ${newMedId}, ${fingerprint})
    on conflict (idempotency_key) do nothing
    returning med_id as "medId"`;
  if (inserted) return { medId: inserted.medId, outcome: 'new' };
  const [bound] = await sql<{ medId: string; fingerprint: string }[]>`
    select med_id as "medId", fingerprint from med_open_requests where idempotency_key = ${key}`;
  return { medId: bound!.medId, outcome: compareWithExisting(bound!.fingerprint, fingerprint) };
}
