// Activities are thin: each calls into src/ with the process's dependencies. The worker runs each
// through activityInterceptors: it heartbeats while it runs (heartbeats.ts), and data errors that
// retrying cannot change are non-retryable (final-failures.ts).
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Deps } from '../src/runtime/deps.js';
import { webhookActivities } from './webhooks.js';
import { chargeActivities } from '../src/charges/activities.js';
import { transferActivities } from '../src/transfers/activities.js';
import { medActivities } from '../src/meds/activities.js';
import { refundActivities } from '../src/refunds/activities.js';
import { reconciliationActivities } from '../src/reconciliation/activities.js';
import { recurrenceActivities } from '../src/recurrences/activities.js';
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
