// Activities are thin: each calls into src/ with the process's dependencies. The worker runs each
// through activityInterceptors: it heartbeats while it runs (heartbeats.ts), and data errors that
// retrying cannot change are non-retryable (final-failures.ts).
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Deps } from '../src/runtime/deps.js';
import { webhookActivities } from './webhooks.js';
import { chargeActivities } from './charges.js';
import { transferActivities } from './transfers.js';
import { medActivities } from './meds.js';
import { refundActivities } from './refunds.js';
import { reconciliationActivities } from './reconciliation.js';
import { recurrenceActivities } from './recurrences.js';
import { finalFailures } from './final-failures.js';
import { heartbeats } from './heartbeats.js';

export function createActivities(deps: Deps) {
  return {
    ...webhookActivities(deps),
    ...chargeActivities(deps),
    ...transferActivities(deps),
    ...medActivities(deps),
    ...refundActivities(deps),
    ...reconciliationActivities(deps),
    ...recurrenceActivities(deps),
  };
}

/** What the worker wraps every activity in (src/worker.ts); the first listed runs outermost. */
export const activityInterceptors: ActivityInterceptorsFactory[] = [heartbeats, finalFailures];
