// Activities are thin: each calls into src/ with the process's dependencies.
import type { Deps } from '../src/deps.js';
import { webhookActivities } from './webhooks.js';

export function createActivities(deps: Deps) {
  return {
    ...webhookActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
