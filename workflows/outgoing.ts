// What the transfer and refund workflows share, money the engine sends out through a route: accept it
// (persist, then hand it to the route) while the API waits on the `accept` update, await the route's
// answer (the `networkAnswered` signal, with polling as a fallback, continuing as new after
// POLLS_PER_RUN polls), and settle once. Each workflow names its own activity calls, so the commands
// (activities, their order, the timers) are those each issued before this was shared.
import { allHandlersFinished, condition, continueAsNew, patched, setHandler } from '@temporalio/workflow';
import {
  acceptUpdate,
  remotePollDelayMs,
  UNPROCESSABLE,
  type Persisted,
  type RouteState,
  type Settled,
  type TransactionState,
} from '../contracts/transaction.contract.js';
import { networkAnsweredSignal, POLLS_PER_RUN, pollDelayMs } from '../src/transfers/contract.js';
import { acceptAnswer, permanentFailure, readTransaction, routeRefusal, type AcceptDecision } from './transaction-activities.js';
import { showStatus } from './transaction-status.js';
import { REFUSED_STATUS } from '../contracts/transaction-status.contract.js';

type RouteAnswer = Exclude<RouteState, { status: 'pending' }>;

/** One kind's steps, each one activity call (or two, for a settlement of a run recorded before its patch). */
export interface OutgoingSteps {
  /** The transaction the run creates (out_…, rfd_…). */
  id: string;
  /**
   * `sent`: the route's answer when the accept step handed the transaction over itself (no send step
   * then); `settled`: the settlement it made too, when that answer was final (no settle step then).
   */
  persist(): Promise<Persisted | (Extract<Persisted, { outcome: 'persisted' }> & { sent: RouteState; settled?: Settled })>;
  /** Set when the regular activities of a remote route came after the kind's first runs (REMOTE_ROUTE_CALLS). */
  remotePatch?: string;
  /** The hand-over: `remote`, by a regular activity rather than a local one. */
  send(remote: boolean): Promise<RouteState>;
  /** Once the `accept` update is answered, before the route's answer is awaited. */
  accepted?(): Promise<void>;
  /** `remote`: the transaction's route is remote (as for `send`). */
  stateAtRoute(remote: boolean): Promise<RouteState>;
  settle(answer: RouteAnswer, remote: boolean): Promise<Settled>;
  /** The status the run shows once settled, when not its transaction's own. */
  shownStatus?(settled: Settled): string | undefined;
  /** How the run shows a status: by default behind TRANSACTION_STATUS_SEARCH_ATTRIBUTE (showStatus). */
  showStatus?(status: string): void;
}

/** The run: the settled transaction, the key's other transaction as it is, or null when the accept step refused. */
export async function runOutgoing<I extends { requestId: string }>(input: I, steps: OutgoingSteps): Promise<TransactionState | null> {
  /** What the accept step decided (set once it did): every request of the key is answered from it. */
  let decision: AcceptDecision | null = null;
  let notified = false;
  let remote = false;
  const show = steps.showStatus ?? ((status: string) => showStatus(status));

  setHandler(acceptUpdate, async (request) => {
    await condition(() => decision !== null);
    return acceptAnswer(decision!, request, input.requestId);
  });

  setHandler(networkAnsweredSignal, () => {
    notified = true;
  });

  const persisted = await steps.persist().catch((err): Persisted => {
    if (!permanentFailure(err, steps.id)) throw err;
    return { outcome: 'refused', refusal: UNPROCESSABLE };
  });
  if (persisted.outcome === 'refused') {
    decision = { refusal: persisted.refusal };
    show(REFUSED_STATUS);
    await condition(allHandlersFinished);
    return null;
  }
  let transaction = readTransaction(persisted.transaction);
  const accepted: AcceptDecision = { transaction, fingerprint: persisted.fingerprint, createdByThisRun: persisted.created };

  // The key may name another operation (a charge, or one this run did not create and that is final).
  if (transaction.id === steps.id && transaction.status === 'pending') {
    // Runs whose persist step did not say `remote` (before it existed, or on the simulator) take the local path.
    remote = persisted.remote === true && (steps.remotePatch === undefined || patched(steps.remotePatch));
    // Answered once the route holds the transaction, so that it can be settled from then on.
    const sent = 'sent' in persisted ? persisted.sent : await send();
    decision = accepted;
    let settled = 'settled' in persisted ? persisted.settled : undefined;
    if (!settled) {
      show(transaction.status);
      await steps.accepted?.();
      const answer = sent.status === 'pending' ? await awaitAnswer() : sent;
      settled = await steps.settle(answer, remote);
    }
    transaction = readTransaction(settled.transaction);
    show(steps.shownStatus?.(settled) ?? transaction.status);
  } else {
    decision = accepted;
  }
  await condition(allHandlersFinished);
  return transaction;

  async function send(): Promise<RouteState> {
    try {
      return await steps.send(remote);
    } catch (err) {
      const refusal = routeRefusal(err);
      if (!refusal) throw err;
      return { status: 'failed', reason: refusal.message };
    }
  }

  async function awaitAnswer(): Promise<RouteAnswer> {
    for (let poll = 0; ; poll++) {
      if (poll >= POLLS_PER_RUN) {
        await condition(allHandlersFinished);
        await continueAsNew<(input: I) => Promise<TransactionState | null>>(input);
      }
      await condition(() => notified, remote ? remotePollDelayMs(poll) : pollDelayMs(poll));
      notified = false;
      const state = await steps.stateAtRoute(remote);
      if (state.status !== 'pending') return state;
    }
  }
}
