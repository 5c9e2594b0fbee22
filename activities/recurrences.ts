// Recurrence activities: thin wrappers over src/recurrences/.
import type { Deps } from '../src/runtime/deps.js';
import * as lifecycle from '../src/recurrences/lifecycle.js';
import { createEngineCycleCharge } from '../src/recurrences/cycle-charges.js';
import type { RecurrenceTransition } from '../contracts/recurrence.contract.js';

export function recurrenceActivities(deps: Deps) {
  return {
    transitionRecurrence: (recurrenceId: string, transition: RecurrenceTransition) =>
      lifecycle.transitionRecurrence(deps, recurrenceId, transition),
    cancelCycleCharges: (recurrenceId: string) => lifecycle.cancelCycleCharges(deps, recurrenceId),
    cyclesSettled: (recurrenceId: string) => lifecycle.cyclesSettled(deps, recurrenceId),
    createCycleCharge: (input: { recurrenceId: string; dueDate: string }) => createEngineCycleCharge(deps, input),
  };
}

export type RecurrenceActivities = ReturnType<typeof recurrenceActivities>;
