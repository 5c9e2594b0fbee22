// One workflow per recurrence (Pix Automático), id `recurrence:<accountId>:<key>`. It waits for the
// payer's answer until the authorization expires; once active it creates each cycle's charge
// `leadDays` before its due date (a fixed amount: a variable one's cycles come from the business),
// stops past the end date, and completes once the last cycle settled. Either side's cancellation
// cancels the cycles not yet due. Every CYCLES_PER_RUN cycles it continues as new, so that a
// recurrence of years keeps a small history. Its `change` update is how the payer (the simulator,
// a PSP's webhook) and the merchant (DELETE /v1/recurrences/{id}) change it. On a remote route
// (RECURRENCE_AT_ROUTE) the payer's answers are read from the route, woken by the PSP's webhooks.
import { allHandlersFinished, condition, continueAsNew, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RecurrenceActivities } from './activities.js';
import {
  changeUpdate,
  COMPLETION_GRACE_DAYS,
  cycleDueDate,
  CYCLES_PER_RUN,
  MIN_LEAD_DAYS,
  RECURRENCE_AT_ROUTE,
  recurrenceNotifiedSignal,
  routePollDelayMs,
  type RecurrenceChange,
  type RecurrenceStatus,
  type RecurrenceTransition,
  type RecurrenceWorkflowInput,
} from './contract.js';
import { addDays, daysBetween, saoPauloDate, startOfSaoPauloDay } from '../../contracts/calendar.js';
import { HEARTBEAT_TIMEOUT } from '../../contracts/heartbeat.contract.js';
import { TRANSACTION_ACTIVITY_RETRY as retry } from '../../contracts/transaction.contract.js';
import { RECURRENCE_STATUS_SEARCH_ATTRIBUTE } from '../../contracts/transaction-status.contract.js';
import { showStatus } from '../../workflows/transaction-status.js';

const calls = proxyActivities<RecurrenceActivities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry });

const DAY_MS = 86_400_000;

/** Which changes each status takes; any other is rejected by the update's validator (the caller answers 409). */
function allowed(status: RecurrenceStatus, change: RecurrenceChange | RecurrenceTransition): boolean {
  if (change.change === 'cancel') return status === 'active' || status === 'pending_authorization';
  if (change.change === 'complete') return status === 'active';
  return status === 'pending_authorization';
}

export async function recurrenceWorkflow(input: RecurrenceWorkflowInput): Promise<RecurrenceStatus> {
  let status: RecurrenceStatus = input.continued ? 'active' : 'pending_authorization';
  /** The status now, unnarrowed: a handler may change it while the workflow awaits. */
  const current = () => status;
  /** One change at a time: the persisted status and this one never disagree. */
  let changing = false;

  /** A recurrence on a remote route: the payer's answers are the route's (RECURRENCE_AT_ROUTE). */
  const atRoute = input.remote === true && patched(RECURRENCE_AT_ROUTE);
  let routeNotified = false;
  if (atRoute) {
    setHandler(recurrenceNotifiedSignal, () => {
      routeNotified = true;
    });
  }

  /** Persists `change` when the status takes it (one at a time), and cancels the cycles not yet due on a cancellation. */
  async function apply(change: RecurrenceTransition | (() => Promise<RecurrenceTransition>)): Promise<void> {
    await condition(() => !changing);
    changing = true;
    try {
      // The merchant's cancellation and the expiry are asked of the route first: its answer is the transition.
      const transition = typeof change === 'function' ? await change() : change;
      if (!allowed(status, transition)) return;
      status = await persistTransition(transition);
      if (current() === 'cancelled') await calls.cancelCycleCharges(input.recurrenceId);
    } finally {
      changing = false;
    }
  }

  setHandler(
    changeUpdate,
    async (change) => {
      if (atRoute && change.change === 'cancel' && change.by === 'merchant') {
        await condition(() => !changing);
        if (allowed(status, change)) await apply(() => calls.cancelRecurrenceAtRoute(input.recurrenceId, 'cancel'));
        return status;
      }
      await condition(() => !changing);
      if (!allowed(status, change)) return status;
      changing = true;
      try {
        status = await persistTransition(change);
        if (current() === 'cancelled') await calls.cancelCycleCharges(input.recurrenceId);
      } finally {
        changing = false;
      }
      return status;
    },
    {
      validator: (change) => {
        if (!allowed(status, change)) throw new Error(`a recurrence ${status} cannot take ${change.change}`);
      },
    },
  );

  if (atRoute) void watchRoute();

  if (status === 'pending_authorization') {
    const answered = await condition(() => status !== 'pending_authorization', Math.max(input.authorizationExpiresAtMs - Date.now(), 0));
    if (!answered && atRoute) {
      // Withdrawn at the route first: an answer the payer gave meanwhile prevails.
      await condition(() => !changing);
      if (status === 'pending_authorization') await apply(() => calls.cancelRecurrenceAtRoute(input.recurrenceId, 'expire'));
    } else if (!answered) {
      await condition(() => !changing);
      if (status === 'pending_authorization') status = await persistTransition({ change: 'expire' });
    }
  }

  const lastDueDate = await runCycles();
  if (status === 'active') {
    // Past the end date: the last cycle's retries end within COMPLETION_GRACE_DAYS of its due date.
    const settleBy = startOfSaoPauloDay(addDays(lastDueDate ?? input.endDate!, COMPLETION_GRACE_DAYS + 1)).getTime();
    await condition(() => status !== 'active', Math.max(settleBy - Date.now(), 0));
    while (status === 'active' && !(await calls.cyclesSettled(input.recurrenceId))) {
      await condition(() => status !== 'active', DAY_MS);
    }
    await condition(() => !changing);
    if (status === 'active') status = await persistTransition({ change: 'complete' });
  }
  await condition(allHandlersFinished);
  return status;

  /** Persists the transition; the run's TransactionStatus shows the status after it. */
  async function persistTransition(change: RecurrenceTransition): Promise<RecurrenceStatus> {
    const after = await calls.transitionRecurrence(input.recurrenceId, change);
    showStatus(after, RECURRENCE_STATUS_SEARCH_ATTRIBUTE);
    return after;
  }

  /** While the recurrence is open, asks the route when a webhook names it and on a schedule, and takes its answer. */
  async function watchRoute(): Promise<void> {
    const open = () => current() === 'pending_authorization' || current() === 'active';
    for (let poll = 0; open();) {
      const woken = await condition(() => routeNotified || !open(), routePollDelayMs(current(), poll));
      if (!open()) return;
      if (!woken) poll += 1;
      routeNotified = false;
      const transition = await calls.recurrenceTransitionAtRoute(input.recurrenceId);
      if (transition) await apply(transition);
    }
  }

  /**
   * The cycles from this run's first on, while active and within the end date: each created on its
   * creation day. Answers the last cycle's due date (null when no cycle fell within the end date).
   */
  async function runCycles(): Promise<string | null> {
    for (let index = input.continued?.nextCycle ?? 0, inRun = 0; status === 'active'; index += 1, inRun += 1) {
      const dueDate = cycleDueDate(input.firstDueDate, input.frequency, index);
      if (input.endDate !== null && dueDate > input.endDate)
        return index > 0 ? cycleDueDate(input.firstDueDate, input.frequency, index - 1) : null;
      if (inRun === CYCLES_PER_RUN) {
        await condition(allHandlersFinished);
        if (atRoute) await condition(() => !changing);
        if (status === 'active') await continueAsNew<typeof recurrenceWorkflow>({ ...input, continued: { nextCycle: index } });
      }
      // A variable recurrence's cycles are the business's: the workflow only follows the calendar.
      const createOn = input.fixedAmount ? addDays(dueDate, -input.leadDays) : dueDate;
      const waitMs = startOfSaoPauloDay(createOn).getTime() - Date.now();
      if (waitMs > 0 && (await condition(() => status !== 'active', waitMs))) break;
      // Too close to its due date to reach the payer's bank in time (authorized late): the cycle is skipped.
      if (input.fixedAmount && daysBetween(saoPauloDate(new Date()), dueDate) >= MIN_LEAD_DAYS) {
        await calls.createCycleCharge({ recurrenceId: input.recurrenceId, dueDate });
        // Cancelled while the cycle was being created: its cancellation may have missed it.
        if (current() === 'cancelled') await calls.cancelCycleCharges(input.recurrenceId);
      }
    }
    return null;
  }
}
