// Several processes starting at once (`npm run api` and `npm run worker` together), on a database
// that does not exist yet or while another one migrates: each creates it if missing, migrates, and succeeds.
import { inject, describe, expect, it } from 'vitest';
import { connect, ensureDatabase } from '../../src/db/database.js';
import { MIGRATION_LOCK_ID, migrate } from '../../src/db/migrate.js';
import { freshDatabaseUrl } from '../helpers/database.js';

const STARTS = 6;

async function start(url: string): Promise<string[]> {
  await ensureDatabase(url);
  const sql = connect(url, { max: 1 });
  try {
    return await migrate(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

describe('processes starting at the same time', () => {
  it.each([1, 2, 3])('round %i: every start succeeds and the migrations are applied once', async () => {
    const url = freshDatabaseUrl(inject('testRunId'));
    const results = await Promise.allSettled(Array.from({ length: STARTS }, () => start(url)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const applied = results.map((r) => (r as PromiseFulfilledResult<string[]>).value);
    // One start applied them all; the others found them done.
    expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
    const sql = connect(url, { max: 1 });
    try {
      const rows = await sql<{ name: string }[]>`select name from schema_migrations order by name`;
      expect(rows.map((r) => r.name)).toEqual(applied.find((names) => names.length > 0));
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('a start waits for a long migration of another process longer than its statement_timeout', async () => {
    const url = freshDatabaseUrl(inject('testRunId'));
    await ensureDatabase(url);
    const other = connect(url, { max: 1 });
    const sql = connect(url, { max: 1, statementTimeoutMs: 100 });
    try {
      let release!: () => void;
      let locked!: () => void;
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      const migrating = other.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await lockHeld;
      const waiting = migrate(sql);
      setTimeout(() => release(), 500);
      await migrating;
      expect((await waiting).length).toBeGreaterThan(0);
    } finally {
      await Promise.all([other.end({ timeout: 5 }), sql.end({ timeout: 5 })]);
    }
  });
});
