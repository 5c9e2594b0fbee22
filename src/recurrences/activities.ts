// Recurrence activities: thin wrappers over src/recurrences/.
import type { Deps } from '../runtime/deps.js';
import * as lifecycle from './lifecycle.js';
import { createEngineCycleCharge } from './cycle-charges.js';
import { cancelRecurrenceAtRoute, recurrenceTransitionAtRoute } from './at-route.js';
import type { RecurrenceTransition } from './contract.js';

export function recurrenceActivities(deps: Deps) {
  return {
    transitionRecurrence: (recurrenceId: string, transition: RecurrenceTransition) =>
      lifecycle.transitionRecurrence(deps, recurrenceId, transition),
    cancelCycleCharges: (recurrenceId: string) => lifecycle.cancelCycleCharges(deps, recurrenceId),
    cyclesSettled: (recurrenceId: string) => lifecycle.cyclesSettled(deps, recurrenceId),
    createCycleCharge: (input: { recurrenceId: string; dueDate: string }) => createEngineCycleCharge(deps, input),
    recurrenceTransitionAtRoute: (recurrenceId: string) => recurrenceTransitionAtRoute(deps, recurrenceId),
    cancelRecurrenceAtRoute: (recurrenceId: string, intent: 'cancel' | 'expire') => cancelRecurrenceAtRoute(deps, recurrenceId, intent),
  };
}

export type RecurrenceActivities = ReturnType<typeof recurrenceActivities>;
