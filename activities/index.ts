// The worker's activities: the webhook deliveries' (webhooks.ts) and each kind's (src/<kind>/activities.ts,
// listed by src/kinds). Activities are thin: each calls into src/ with the process's dependencies. The worker runs each
// through activityInterceptors: it heartbeats while it runs (heartbeats.ts), and data errors that
// retrying cannot change are non-retryable (final-failures.ts).
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Deps } from '../src/runtime/deps.js';
import { KINDS } from '../src/kinds/index.js';
import { webhookActivities } from './webhooks.js';
import { finalFailures } from './final-failures.js';
import { heartbeats } from './heartbeats.js';

/** The activities of every workflow: the webhook deliveries' and each kind's (src/kinds). */
export function createActivities(deps: Deps) {
  return Object.assign(webhookActivities(deps), ...KINDS.map((kind) => kind.activities(deps)));
}

/** What the worker wraps every activity in (src/worker.ts); the first listed runs outermost. */
export const activityInterceptors: ActivityInterceptorsFactory[] = [heartbeats, finalFailures];
