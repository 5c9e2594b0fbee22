// The migration runner on a copy of the migrations folder: each file in its own transaction, the
// SHA-256 of each applied file recorded, an applied file changed afterwards refused by name, databases
// from before checksums given theirs without a refusal, and the advisory lock released whatever happens.
import { createHash } from 'node:crypto';
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { migrate, MigrationChangedError, MIGRATION_LOCK_ID, MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { emptyDatabase } from '../helpers/migrated-database.js';

describe('migration runner', () => {
  let sql: Sql;
  /** Another session: a lock the runner's own session leaked would be granted again to that session. */
  let observer: Sql;
  let dir: string;

  beforeAll(async () => {
    const database = await emptyDatabase({ max: 2 });
    sql = database.sql;
    observer = connect(database.url, { max: 1 });
    dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all([sql?.end({ timeout: 5 }), observer?.end({ timeout: 5 })]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const recorded = async () =>
    new Map(
      (await sql<{ name: string; checksum: string | null }[]>`select name, checksum from schema_migrations`).map((r) => [
        r.name,
        r.checksum,
      ]),
    );
  const sha256 = async (name: string) =>
    createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  const tableExists = async (name: string) => (await sql<{ t: string | null }[]>`select to_regclass(${name}) as t`)[0]!.t !== null;
  /** True when no session holds the migration lock (a leaked lock would stop every later start). */
  const lockFree = async () => {
    const [row] = await observer<{ taken: boolean }[]>`select pg_try_advisory_xact_lock(${MIGRATION_LOCK_ID}) as taken`;
    return row!.taken;
  };

  it('applies every file and records its SHA-256', async () => {
    const applied = await migrate(sql, dir);
    expect(applied.length).toBeGreaterThan(5);
    const rows = await recorded();
    for (const name of applied) expect(rows.get(name)).toBe(await sha256(name));
    expect(await migrate(sql, dir)).toEqual([]);
    expect(await lockFree()).toBe(true);
  });

  it('refuses to start when an applied file was changed, naming it; the restored file starts again', async () => {
    const [first] = [...(await recorded()).keys()].sort();
    const original = await readFile(join(dir, first!), 'utf8');
    await appendFile(join(dir, first!), '\n-- edited after it was applied\n');
    await writeFile(join(dir, '900_after_the_edit.sql'), 'create table after_the_edit (id int);');
    try {
      const refusal = migrate(sql, dir);
      await expect(refusal).rejects.toThrow(MigrationChangedError);
      await expect(refusal).rejects.toThrow(`migration ${first} was changed after it was applied`);
      expect(await tableExists('after_the_edit')).toBe(false); // nothing applied past a refusal
      expect(await lockFree()).toBe(true);
    } finally {
      await writeFile(join(dir, first!), original);
    }
    expect(await migrate(sql, dir)).toEqual(['900_after_the_edit.sql']);
    expect(await tableExists('after_the_edit')).toBe(true);
    expect((await recorded()).get('900_after_the_edit.sql')).toBe(await sha256('900_after_the_edit.sql'));
  });

  it('a failing file rolls back alone: the files before it stay applied', async () => {
    await writeFile(join(dir, '910_good.sql'), 'create table good_one (id int);');
    await writeFile(join(dir, '920_bad.sql'), 'create table half_done (id int);\nselect 1 / 0;');
    await expect(migrate(sql, dir)).rejects.toThrow('migration 920_bad.sql failed and was rolled back: division by zero');
    const rows = await recorded();
    expect(rows.has('910_good.sql')).toBe(true);
    expect(rows.has('920_bad.sql')).toBe(false);
    expect(await tableExists('good_one')).toBe(true);
    expect(await tableExists('half_done')).toBe(false);
    expect(await lockFree()).toBe(true);

    await writeFile(join(dir, '920_bad.sql'), 'create table half_done (id int);');
    expect(await migrate(sql, dir)).toEqual(['920_bad.sql']);
  });

  it('a database from before checksums gets them recorded at its next start, not refused', async () => {
    await sql`alter table schema_migrations drop column checksum`;
    expect(await migrate(sql, dir)).toEqual([]);
    const rows = await recorded();
    expect(rows.size).toBeGreaterThan(5);
    for (const [name, checksum] of rows) expect(checksum).toBe(await sha256(name));
  });
});
