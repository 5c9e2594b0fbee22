// PostgreSQL errors that retrying cannot change: activities report them to workflows as
// PermanentDataError (workflows/transaction.contract.ts), with what an operator may read of them.

interface PostgresErrorFields {
  code?: unknown;
  table_name?: unknown;
  column_name?: unknown;
  constraint_name?: unknown;
}

/** The SQLSTATE of a PostgreSQL data exception (22) or integrity constraint violation (23), else null. */
export function permanentDataErrorCode(err: unknown): string | null {
  const code = (err as PostgresErrorFields | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code) ? code : null;
}

/** What an operator may read of such an error: the SQLSTATE and the names involved, never the values (they may be personal data). */
export function describeDataError(err: unknown, code: string): string {
  const fields = err as PostgresErrorFields;
  const names = (['table_name', 'column_name', 'constraint_name'] as const)
    .filter((name) => typeof fields[name] === 'string')
    .map((name) => `${name}=${String(fields[name])}`);
  return [`PostgreSQL ${code}`, ...names].join(' ');
}
