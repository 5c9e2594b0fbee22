// A PostgreSQL data or constraint error (SQLSTATE classes 22 and 23) cannot change by retrying: every
// activity reports it as a non-retryable PermanentDataError (with the SQLSTATE and names, never the
// values), so no workflow retries it for hours; the workflows decide what it means for the operation.
// A route's definitive refusal needs nothing here: RouteRefused reaches the workflow under its class
// name, which the transaction activities' retry policy lists as non-retryable (transaction.contract.ts).
// Everything else stays retryable by Temporal.
import { ApplicationFailure } from '@temporalio/common';
import { describeDataError, permanentDataErrorCode } from '../src/temporal/failures.js';
import { PERMANENT_DATA_ERROR } from '../workflows/transaction.contract.js';

type AnyActivity = (...args: never[]) => Promise<unknown>;

function finalFailure(err: unknown): unknown {
  const code = permanentDataErrorCode(err);
  return code ? ApplicationFailure.nonRetryable(describeDataError(err, code), PERMANENT_DATA_ERROR) : err;
}

export function withFinalFailures<A extends Record<string, AnyActivity>>(activities: A): A {
  return Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [
      name,
      async (...args: never[]) => {
        try {
          return await activity(...args);
        } catch (err) {
          throw finalFailure(err);
        }
      },
    ]),
  ) as A;
}
