import { randomBytes } from 'node:crypto';

export const PG_BASE = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const ADMIN_DATABASE_URL = `${PG_BASE}/postgres`;

/** Databases of one `npm test` run start with this prefix, so its teardown drops only its own. */
export const testDbPrefix = (runId: string) => `pixt_${runId}_`;

/** A URL for a fresh database of its own; the engine creates and migrates it at start. */
export function freshDatabaseUrl(runId: string): string {
  return `${PG_BASE}/${testDbPrefix(runId)}${randomBytes(5).toString('hex')}`;
}
