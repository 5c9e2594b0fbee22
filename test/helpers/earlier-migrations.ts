// A directory holding only the migrations that sort before `migration`, to build a database as it was
// before that migration and then check what the migration does to the rows it finds.
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../../src/db/migrate.js';

export async function migrationsBefore(migration: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f < migration)) {
    await symlink(join(MIGRATIONS_DIR, file), join(dir, file));
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
