// PostgreSQL access: one pool per process, created after making sure the database exists.
import postgres from 'postgres';
import type { Config } from '../config/config.js';

export type Sql = postgres.Sql<Record<string, never>>;
export type TxSql = postgres.TransactionSql<Record<string, never>>;

export function connect(databaseUrl: string, options: { max?: number; statementTimeoutMs?: number } = {}): Sql {
  return postgres(databaseUrl, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {},
    types: { bigint: postgres.BigInt },
    transform: { undefined: null },
  }) as unknown as Sql;
}

export function connectFromConfig(config: Config): Sql {
  return connect(config.databaseUrl, { max: config.databasePoolSize, statementTimeoutMs: config.databaseStatementTimeoutMs });
}

const DATABASE_EXISTS_CODES = ['42P04', '23505'];

/** A round trip to PostgreSQL (the readiness probe). */
export async function pingDatabase(sql: Sql): Promise<void> {
  await sql`select 1`;
}

/** Creates the database named in the URL when it is missing (connecting through the `postgres` maintenance database). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) return;
  url.pathname = '/postgres';
  const admin = connect(url.toString(), { max: 1 });
  try {
    const [row] = await admin`select 1 as present from pg_database where datname = ${name}`;
    if (!row) {
      try {
        await admin.unsafe(`create database "${name.replace(/"/g, '""')}"`);
      } catch (err) {
        // Another process created it between our check and our create: 42P04 when its create had
        // committed, 23505 (pg_database_datname_index) when both creates ran at the same time.
        if (!DATABASE_EXISTS_CODES.includes((err as { code?: string }).code ?? '')) throw err;
      }
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}
