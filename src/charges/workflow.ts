// One workflow per charge, id `charge:<accountId>:<idempotency key>`. It accepts the charge (persist
// the transaction, create it at the account's route) while the API waits on the `accept` update,
// then waits durably for the payment notification or the expiry, and settles once:
// the route's answer decides between paid and expired, never both. On a remote route (a PSP) the
// creation is a regular activity and the workflow also polls the route while the charge is pending;
// a due-date charge, which waits for weeks, is polled at most hourly and continues as new every week
// or so (its next run finds the charge persisted and opened, and waits again).
import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, patched, setHandler } from '@temporalio/workflow';
import type { ChargeActivities } from './activities.js';
import {
  COALESCED_REFRESH,
  CONFIRM_AND_SETTLE,
  CYCLE_CANCELLATION_CONFIRMED,
  cycleCancelledSignal,
  LOCAL_CONFIRM_AND_SETTLE,
  DUE_DATE_POLLING,
  DUE_DATE_POLLS_PER_RUN,
  dueDatePollDelayMs,
  paymentNotifiedSignal,
  REFRESHES_PER_RUN,
  refreshUpdate,
  type ChargeTransactionState,
  type ChargeWorkflow,
  type PaidAtRoute,
  type PersistedCharge,
  RECURRENCE_CYCLES,
  type RouteChargeState,
} from './contract.js';
import { saoPauloDate } from '../../contracts/calendar.js';
import { retryDay } from '../recurrences/contract.js';
import {
  acceptUpdate,
  DISPATCH_AT_ONCE,
  LOCAL_SETTLEMENT,
  PERSIST_AND_OPEN,
  REMOTE_ROUTE_CALLS,
  remotePollDelayMs,
  SETTLE_DISPATCHES_EVENTS,
  UNPROCESSABLE,
  type SettleOptions,
} from '../../contracts/transaction.contract.js';
import {
  acceptAnswer,
  permanentFailure,
  readCharge,
  routeRefusal,
  transactionActivityCalls,
  type AcceptDecision,
} from '../../workflows/transaction-activities.js';
import { showStatus } from '../../workflows/transaction-status.js';
import { REFUSED_STATUS } from '../../contracts/transaction-status.contract.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<ChargeActivities>();

export const chargeWorkflow: ChargeWorkflow = async (input) => {
  const transactionId = input.draft.transactionId;
  let transaction: ChargeTransactionState | null = null;
  /** What the accept step decided (set once it did): every request of the key is answered from it. */
  let decision: AcceptDecision | null = null;
  let notified = false;
  let confirmedPayment: PaidAtRoute | null = null;
  /** The charge as the activity that found it paid at the route settled it (CONFIRM_AND_SETTLE). */
  let settledOnConfirmation: ChargeTransactionState | null = null;

  setHandler(acceptUpdate, async (request) => {
    await condition(() => decision !== null);
    return acceptAnswer(decision!, request, input.requestId);
  });

  setHandler(paymentNotifiedSignal, () => {
    notified = true;
  });

  /** A recurrence's cycle charge (RECURRENCE_CYCLES); its recurrence's cancellation reaches it by signal, a hint it confirms. */
  const cycle = input.draft.asked?.cycle;
  let cycleCancelled = false;
  setHandler(cycleCancelledSignal, () => {
    cycleCancelled = true;
  });

  let refreshesTaken = 0;
  /** The refresh asking the route now, which later refreshes join (COALESCED_REFRESH). */
  let askingRoute: Promise<void> | null = null;
  setHandler(
    refreshUpdate,
    async (): Promise<ChargeTransactionState> => {
      refreshesTaken += 1;
      await condition(() => decision !== null);
      if ('refusal' in decision!) throw ApplicationFailure.nonRetryable('the charge was refused: nothing to refresh', 'ChargeRefused');
      if (transaction!.id !== transactionId || transaction!.status !== 'pending' || confirmedPayment) return transaction!;
      if (!patched(COALESCED_REFRESH)) await askRoute();
      else await (askingRoute ??= askRoute().finally(() => (askingRoute = null)));
      return transaction!;
    },
    {
      validator: () => {
        if (refreshesTaken >= REFRESHES_PER_RUN) throw new Error(`this charge took its ${REFRESHES_PER_RUN} refreshes`);
      },
    },
  );

  async function askRoute(): Promise<void> {
    const state = await routeCalls.chargeStateAtRoute(transactionId);
    if (state.status === 'paid') {
      confirmedPayment = state;
      await condition(() => transaction!.status !== 'pending');
    }
  }

  const persist = patched(PERSIST_AND_OPEN) ? acceptCalls.persistAndOpenCharge : acceptCalls.persistCharge;
  const persisted = await persist({ draft: input.draft, createdAtMs: Date.now(), ttlSeconds: input.ttlSeconds }).catch(
    (err): PersistedCharge => {
      if (!permanentFailure(err, transactionId)) throw err;
      return { outcome: 'refused', refusal: UNPROCESSABLE };
    },
  );
  // Tested by its field: runs recorded before the step answered an `outcome` have none.
  if ('refusal' in persisted) {
    // Nothing was kept: the key stays free, and a request after this run ends is a new attempt.
    decision = { refusal: persisted.refusal };
    showStatus(REFUSED_STATUS);
    await condition(allHandlersFinished);
    return null;
  }
  transaction = readCharge(persisted.transaction);
  const createdByThisRun = persisted.created;
  if (transaction.id !== transactionId) {
    // The key already belongs to another operation of the account (a transfer): answer conflicts only.
    decision = { transaction, fingerprint: null, createdByThisRun };
    await condition(allHandlersFinished);
    return transaction;
  }

  // Runs whose persist step did not say `remote` (before it existed, or on the simulator) take the old path.
  const remote = persisted.remote === true && patched(REMOTE_ROUTE_CALLS);
  /** Route state and settlement: local activities on the simulator from LOCAL_SETTLEMENT on. */
  const settlementCalls = () =>
    !remote && patched(LOCAL_SETTLEMENT) ? { route: acceptCalls, ledger: acceptCalls } : { route: routeCalls, ledger: ledgerCalls };

  // Not opened yet: a run before PERSIST_AND_OPEN, a remote route, or an open in the accept step that failed.
  if (transaction.status === 'pending' && !transaction.opened) {
    try {
      transaction = readCharge(await (remote ? remoteCalls : acceptCalls).openChargeAtRoute(transactionId));
    } catch (err) {
      // Nothing can be paid yet: a charge the route refused, or could not be stored, fails.
      if (!routeRefusal(err) && !permanentFailure(err, transactionId)) throw err;
      transaction = await settle({ status: 'failed' });
    }
  }
  decision = { transaction, fingerprint: persisted.fingerprint, createdByThisRun };
  showStatus(transaction.status);

  if (transaction.status === 'pending') {
    const outcome = await awaitOutcome(transaction.expiresAtMs, transaction.dueDate !== undefined && remote && patched(DUE_DATE_POLLING));
    transaction = await settle(outcome);
    showStatus(transaction.status);
  }

  await condition(allHandlersFinished);
  return transaction;

  /**
   * Waits for the payment or the expiry (polling a remote route meanwhile); the route's answer decides.
   * `dueDatePolling`: a due-date charge on a remote route (DUE_DATE_POLLING), polled at most hourly.
   */
  async function awaitOutcome(expiresAtMs: number, dueDatePolling: boolean): Promise<RouteChargeState | { status: 'failed' }> {
    const pollDelayMs = dueDatePolling ? dueDatePollDelayMs : remotePollDelayMs;
    const pollsBefore = input.pollsBefore ?? 0;
    for (let poll = pollsBefore; ;) {
      if (dueDatePolling && poll - pollsBefore >= DUE_DATE_POLLS_PER_RUN) {
        await condition(allHandlersFinished);
        // A payment notice that came meanwhile is handled by this run; the next run would not know of it.
        if (!notified && !confirmedPayment) await continueAsNew<ChargeWorkflow>({ ...input, pollsBefore: poll });
      }
      const remainingMs = expiresAtMs - Date.now();
      let pollDue = false;
      if (remainingMs > 0) {
        const pollInMs = remote ? pollDelayMs(poll) : Infinity;
        const woken = await condition(() => notified || confirmedPayment !== null || cycleCancelled, Math.min(remainingMs, pollInMs));
        pollDue = !woken && pollInMs < remainingMs;
        if (pollDue) poll += 1;
      }
      if (confirmedPayment) return confirmedPayment;
      if (cycleCancelled && cycle && patched(RECURRENCE_CYCLES)) {
        const cancel = () => settlementCalls().route.cancelChargeAtRoute(transactionId, 'other');
        if (!patched(CYCLE_CANCELLATION_CONFIRMED)) return cancel();
        // Cleared first: a signal that comes while PostgreSQL is asked is asked about again.
        cycleCancelled = false;
        if (await settlementCalls().ledger.cycleCancelledByRecurrence(transactionId)) return cancel();
      }
      if (notified || pollDue) {
        notified = false;
        const state = await stateAtRoute();
        if (state.status === 'declined') {
          if (await retryDeclined(state.declined)) continue;
          return failAtRoute();
        }
        if (state.status !== 'pending') return state;
        continue;
      }
      if (Date.now() < expiresAtMs) continue;
      // Expired: cancel at the route. If the payer got there first, the route says paid and that prevails.
      return settlementCalls().route.cancelChargeAtRoute(transactionId);
    }
  }

  /** The route's state of the charge; from CONFIRM_AND_SETTLE (remote) or LOCAL_CONFIRM_AND_SETTLE (simulator) on, a paid one is settled by the same activity. */
  async function stateAtRoute(): Promise<RouteChargeState> {
    const confirming = remote ? patched(CONFIRM_AND_SETTLE) : patched(LOCAL_SETTLEMENT) && patched(LOCAL_CONFIRM_AND_SETTLE);
    if (!confirming) return settlementCalls().route.chargeStateAtRoute(transactionId);
    const confirmed = await (remote ? remoteCalls : acceptCalls).confirmChargeAtRoute(transactionId, DISPATCH_AT_ONCE);
    if (confirmed.settled) settledOnConfirmation = readCharge(confirmed.settled.transaction);
    return confirmed.state;
  }

  /** A cycle's debit failed: asks the route for the next attempt (`three_in_seven_days`); false when the cycle fails. */
  async function retryDeclined(declined: number): Promise<boolean> {
    if (!patched(RECURRENCE_CYCLES) || cycle?.retryPolicy !== 'three_in_seven_days' || !transaction!.dueDate) return false;
    const day = retryDay(transaction!.dueDate, declined, saoPauloDate(new Date()));
    if (day === null) return false;
    await settlementCalls().route.retryCycleAtRoute(transactionId, day);
    return true;
  }

  /** A cycle that failed for good: withdrawn at the route (a payment that won the race prevails), then failed. */
  async function failAtRoute(): Promise<RouteChargeState | { status: 'failed' }> {
    const final = await settlementCalls().route.cancelChargeAtRoute(transactionId, 'other');
    return final.status === 'paid' ? final : { status: 'failed' };
  }

  async function settle(outcome: RouteChargeState | { status: 'failed' }): Promise<ChargeTransactionState> {
    if (outcome.status === 'paid' && settledOnConfirmation) return settledOnConfirmation;
    // Runs started before the patch settle, then dispatch each event in an activity of its own.
    const dispatching = patched(SETTLE_DISPATCHES_EVENTS);
    const options: [SettleOptions] | [] = dispatching ? [DISPATCH_AT_ONCE] : [];
    const { ledger } = settlementCalls();
    const settled =
      outcome.status === 'paid'
        ? await ledger.settleChargePaid(transactionId, outcome, ...options)
        : outcome.status === 'cancelled'
          ? await ledger.settleChargeCancelled(transactionId, outcome.expired, ...options)
          : await ledger.settleChargeFailed(transactionId, ...options);
    if (!dispatching) for (const eventId of settled.eventIds) await ledgerCalls.dispatchEvent(eventId);
    return readCharge(settled.transaction);
  }
};
