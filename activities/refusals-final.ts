// A route's definitive refusal becomes a non-retryable activity failure (type RouteRefused);
// everything else stays retryable by Temporal.
import { ApplicationFailure } from '@temporalio/common';
import { ROUTE_REFUSED, RouteRefused } from '../src/processors/types.js';

export async function refusalsFinal<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof RouteRefused) throw ApplicationFailure.nonRetryable(err.message, ROUTE_REFUSED);
    throw err;
  }
}
