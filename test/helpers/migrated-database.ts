// A fresh database of its own for integration tests that talk to PostgreSQL directly: empty, or migrated.
import { inject } from 'vitest';
import { connect, ensureDatabase, type Sql } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { freshDatabaseUrl } from './database.js';

export async function emptyDatabase(options: { max?: number } = {}): Promise<{ url: string; sql: Sql }> {
  const url = freshDatabaseUrl(inject('testRunId'));
  await ensureDatabase(url);
  return { url, sql: connect(url, { max: options.max ?? 10 }) };
}

export async function migratedDatabase(options: { max?: number } = {}): Promise<{ url: string; sql: Sql }> {
  const database = await emptyDatabase(options);
  await migrate(database.sql);
  return database;
}
