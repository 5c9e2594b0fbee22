// Plain ordered SQL migrations (src/db/migrations/NNN_name.sql), each applied once in its own transaction
// and recorded in schema_migrations with the SHA-256 of its file. A file changed after it was applied
// stops the start, naming the file: a change to the schema goes into a new migration. A row without a
// checksum gets its file's at the next start. A session advisory lock, held
// for the whole run, lets several processes start at once: the first migrates, the others wait for it
// (without the pool's statement_timeout) and find nothing to do.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sql } from './database.js';

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
export const MIGRATION_LOCK_ID = 7_271_001;

/** An applied migration whose file is no longer what was applied. */
export class MigrationChangedError extends Error {}

interface Migration {
  name: string;
  text: string;
  checksum: string;
}

async function migrationsIn(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(dir, name), 'utf8');
      return { name, text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

/** Applies the migrations of `dir` not applied yet; returns their names. */
export async function migrate(sql: Sql, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await migrationsIn(dir);
  const session = await sql.reserve();
  try {
    await inTransaction(session, () => session`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      return await applyPending(session, migrations);
    } finally {
      // Fails only with the session itself, which takes the lock with it.
      await session`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`.catch(() => {});
    }
  } finally {
    session.release();
  }
}

/**
 * `work` in one transaction of `session`, without the pool's statement_timeout: a migration may take
 * long, and so may the wait for another process's. Plain begin/commit, as postgres.js's sql.begin()
 * takes a connection of the pool, not the reserved one that holds the lock.
 */
async function inTransaction(session: Sql, work: () => Promise<unknown>): Promise<void> {
  await session`begin`;
  try {
    await session`set local statement_timeout = 0`;
    await work();
    await session`commit`;
  } catch (err) {
    await session`rollback`.catch(() => {});
    throw err;
  }
}

async function applyPending(session: Sql, migrations: Migration[]): Promise<string[]> {
  await inTransaction(session, async () => {
    await session`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`;
    await session`alter table schema_migrations add column if not exists checksum text`;
  });
  const recorded = new Map(
    (await session<{ name: string; checksum: string | null }[]>`select name, checksum from schema_migrations`).map((r) => [
      r.name,
      r.checksum,
    ]),
  );
  for (const { name, checksum } of migrations) {
    const applied = recorded.get(name);
    if (applied === undefined) continue;
    if (applied === null) await session`update schema_migrations set checksum = ${checksum} where name = ${name}`;
    else if (applied !== checksum) {
      throw new MigrationChangedError(
        `migration ${name} was changed after it was applied (SHA-256 ${applied.slice(0, 12)}… then, ${checksum.slice(0, 12)}… now): ` +
          'restore the file and put the change in a new migration',
      );
    }
  }
  const applied: string[] = [];
  for (const { name, text, checksum } of migrations.filter((m) => !recorded.has(m.name))) {
    try {
      await inTransaction(session, async () => {
        await session.unsafe(text);
        await session`insert into schema_migrations (name, checksum) values (${name}, ${checksum})`;
      });
    } catch (err) {
      throw new Error(`migration ${name} failed and was rolled back: ${(err as Error).message}`, { cause: err });
    }
    applied.push(name);
  }
  return applied;
}
