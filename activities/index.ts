// Activities are thin: each calls into src/ with the process's dependencies. Each heartbeats while
// it runs (heartbeats.ts), and data errors that retrying cannot change are non-retryable (final-failures.ts).
import type { Deps } from '../src/deps.js';
import { webhookActivities } from './webhooks.js';
import { chargeActivities } from './charges.js';
import { transferActivities } from './transfers.js';
import { medActivities } from './meds.js';
import { withFinalFailures } from './final-failures.js';
import { withHeartbeats } from './heartbeats.js';

export function createActivities(deps: Deps) {
  return withHeartbeats(withFinalFailures({
    ...webhookActivities(deps),
    ...chargeActivities(deps),
    ...transferActivities(deps),
    ...medActivities(deps),
  }));
}
