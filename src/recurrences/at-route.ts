// A recurrence on a remote route (a PSP): the payer's answer is the route's. These read it, or withdraw
// the recurrence there (the merchant's cancellation, the expiry), and answer the transition the
// recurrence workflow persists (RECURRENCE_AT_ROUTE); a PSP's answer given first prevails.
import type { Deps } from '../runtime/deps.js';
import { recurrenceRoute } from '../pix-routes/registry.js';
import type { RecurrenceRoute, RouteRecurrenceState } from '../pix-routes/types.js';
import type { RecurrenceTransition } from './contract.js';
import { withdrawCycleAtRoute } from '../charges/lifecycle.js';
import { loadRecurrence } from './repository.js';
import { cyclesNotYetDue } from './lifecycle.js';

/** What the recurrence becomes for the route's state; null while the payer has not answered. `intent`: what withdrew it. */
export function transitionOf(state: RouteRecurrenceState, intent: 'cancel' | 'expire' = 'cancel'): RecurrenceTransition | null {
  switch (state.status) {
    case 'pending':
      return null;
    case 'authorized':
      return { change: 'authorize' };
    case 'rejected':
      return { change: 'reject' };
    case 'expired':
      return { change: 'expire' };
    case 'cancelled':
      return state.by === 'merchant' && intent === 'expire' ? { change: 'expire' } : { change: 'cancel', by: state.by };
  }
}

async function atRoute(deps: Deps, recurrenceId: string): Promise<{ route: RecurrenceRoute; routeRef: string } | null> {
  const recurrence = await loadRecurrence(deps.sql, recurrenceId);
  const route = recurrenceRoute(deps, recurrence.route);
  return route && recurrence.routeRef ? { route, routeRef: recurrence.routeRef } : null;
}

/** The transition the route's state of the recurrence leads to; null while the payer has not answered. */
export async function recurrenceTransitionAtRoute(deps: Deps, recurrenceId: string): Promise<RecurrenceTransition | null> {
  const found = await atRoute(deps, recurrenceId);
  return found ? transitionOf(await found.route.recurrenceStatus(found.routeRef)) : null;
}

/**
 * Withdraws the recurrence at the route (the merchant's `cancel`, or the `expire` of an unanswered one); answers
 * the transition. The cycles its cancellation cancels are withdrawn first: a PSP revises a cobr only while its
 * rec holds (once the rec is cancelled, the payer's PSP drops the schedule in its own time).
 */
export async function cancelRecurrenceAtRoute(
  deps: Deps,
  recurrenceId: string,
  intent: 'cancel' | 'expire',
): Promise<RecurrenceTransition> {
  const found = await atRoute(deps, recurrenceId);
  if (found && intent === 'cancel')
    for (const cycle of await cyclesNotYetDue(deps.sql, recurrenceId)) await withdrawCycleAtRoute(deps, cycle.id);
  const state: RouteRecurrenceState = found ? await found.route.cancelRecurrence(found.routeRef) : { status: 'cancelled', by: 'merchant' };
  return transitionOf(state, intent) ?? { change: 'cancel', by: 'merchant' };
}
