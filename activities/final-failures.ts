// Every activity's failures that retrying cannot change become non-retryable, so no workflow retries
// them for hours: a route's definitive refusal (RouteRefused) and a PostgreSQL data or constraint
// error (PermanentDataError, with the SQLSTATE and names but never the values). The workflows decide
// what such a failure means for the operation. Everything else stays retryable by Temporal.
import { ApplicationFailure } from '@temporalio/common';
import { RouteRefused } from '../src/processors/types.js';
import { describeDataError, permanentDataErrorCode } from '../src/temporal/failures.js';
import { PERMANENT_DATA_ERROR, ROUTE_REFUSED } from '../workflows/transaction.contract.js';

type AnyActivity = (...args: never[]) => Promise<unknown>;

function finalFailure(err: unknown): unknown {
  if (err instanceof RouteRefused) return ApplicationFailure.nonRetryable(err.message, ROUTE_REFUSED);
  const code = permanentDataErrorCode(err);
  if (code) return ApplicationFailure.nonRetryable(describeDataError(err, code), PERMANENT_DATA_ERROR);
  return err;
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
