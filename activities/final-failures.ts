// A PostgreSQL data or constraint error (SQLSTATE classes 22 and 23) cannot change by retrying: every
// activity reports it as a non-retryable PermanentDataError (with the SQLSTATE and names, never the
// values), so no workflow retries it for hours; the workflows decide what it means for the operation.
// So is an amount the engine cannot compute with exactly (CentsOutOfRange, src/domain/money.ts), as a
// paid amount past Number.MAX_SAFE_INTEGER centavos once retried a settlement for ever.
// A route's definitive refusal needs nothing here: RouteRefused reaches the workflow under its class
// name, which the transaction activities' retry policy lists as non-retryable (transaction.contract.ts).
// Everything else stays retryable by Temporal.
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { PERMANENT_DATA_ERROR } from '../contracts/transaction.contract.js';
import { CentsOutOfRange } from '../src/domain/money.js';

interface PostgresErrorFields {
  code?: unknown;
  table_name?: unknown;
  column_name?: unknown;
  constraint_name?: unknown;
}

/** The SQLSTATE of a PostgreSQL data exception (22) or integrity constraint violation (23), else null. */
function permanentDataErrorCode(err: unknown): string | null {
  const code = (err as PostgresErrorFields | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code) ? code : null;
}

/** What an operator may read of such an error: the SQLSTATE and the names involved, never the values (they may be personal data). */
function describeDataError(err: unknown, code: string): string {
  const fields = err as PostgresErrorFields;
  const names = (['table_name', 'column_name', 'constraint_name'] as const)
    .filter((name) => typeof fields[name] === 'string')
    .map((name) => `${name}=${String(fields[name])}`);
  return [`PostgreSQL ${code}`, ...names].join(' ');
}

function finalFailure(err: unknown): unknown {
  if (err instanceof CentsOutOfRange) return ApplicationFailure.nonRetryable(err.message, PERMANENT_DATA_ERROR);
  const code = permanentDataErrorCode(err);
  return code ? ApplicationFailure.nonRetryable(describeDataError(err, code), PERMANENT_DATA_ERROR) : err;
}

export const finalFailures: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (err) {
        throw finalFailure(err);
      }
    },
  },
});
