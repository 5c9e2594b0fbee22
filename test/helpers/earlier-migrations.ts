// A directory holding only the migrations that sort before `migration`, to build a database as it was
// before that migration and then check what the migration does to the rows it finds.
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from '../../src/db/database.js';
import { MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { emptyDatabase } from './migrated-database.js';
import { suiteFixture } from './suite-fixture.js';

async function migrationsBefore(migration: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f < migration)) {
    await symlink(join(MIGRATIONS_DIR, file), join(dir, file));
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface MigrationBench {
  /** An empty database of the tests' own; set once the `beforeAll` hooks ran. */
  readonly sql: Sql;
  /** The migrations before the one under test: `migrate(sql, earlierDir)` builds the database as it was. */
  readonly earlierDir: string;
}

/** Registers the hooks that make the database and the directory for the tests of `migration`, and remove both. */
export function migrationBench(migration: string): MigrationBench {
  return suiteFixture(
    'the database',
    async () => {
      const earlier = await migrationsBefore(migration);
      const { sql } = await emptyDatabase({ max: 2 });
      return { sql, earlierDir: earlier.dir, remove: earlier.remove };
    },
    async ({ sql, remove }) => {
      await sql.end({ timeout: 5 });
      await remove();
    },
  );
}
