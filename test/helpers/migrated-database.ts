// A fresh, migrated database of its own for integration tests that talk to PostgreSQL directly.
import { inject } from 'vitest';
import { connect, ensureDatabase, type Sql } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabaseUrl } from './database.js';

export async function migratedDatabase(options: { max?: number } = {}): Promise<{ url: string; sql: Sql }> {
  const url = freshDatabaseUrl(inject('testRunId'));
  await ensureDatabase(url);
  const sql = connect(url, { max: options.max ?? 10 });
  await migrate(sql);
  return { url, sql };
}
