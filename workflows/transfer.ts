// One workflow per transfer, id `transfer:<accountId>:<idempotency key>`. It accepts the transfer
// (the `out_` row and the reservation available → reserved in one PostgreSQL transaction, then the
// hand-over to the account's route) while the API waits on the `accept` update, waits for the route's
// answer (the `networkAnswered` signal, with polling as a fallback), and settles once: approved
// settles the reservation, failed releases it. On a remote route (a PSP) the send is a regular
// activity and the polling follows the remote schedule.
import { allHandlersFinished, condition, continueAsNew, patched, setHandler } from '@temporalio/workflow';
import type { TransferActivities } from '../activities/transfers.js';
import {
  acceptUpdate,
  REMOTE_ROUTE_CALLS,
  remotePollDelayMs,
  SETTLE_DISPATCHES_EVENTS,
  UNPROCESSABLE,
  type Persisted,
  type SettleOptions,
  type TransactionState,
} from '../contracts/transaction.contract.js';
import {
  networkAnsweredSignal,
  POLLS_PER_RUN,
  pollDelayMs,
  type RouteTransferState,
  type TransferWorkflow,
} from '../contracts/transfer.contract.js';
import {
  acceptAnswer,
  permanentFailure,
  readTransaction,
  routeRefusal,
  transactionActivityCalls,
  type AcceptDecision,
} from './transaction-activities.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<TransferActivities>();

export const transferWorkflow: TransferWorkflow = async (input) => {
  const transactionId = input.draft.transactionId;
  /** What the accept step decided (set once it did): every request of the key is answered from it. */
  let decision: AcceptDecision | null = null;
  let notified = false;
  let remote = false;

  setHandler(acceptUpdate, async (request) => {
    await condition(() => decision !== null);
    return acceptAnswer(decision!, request, input.requestId);
  });

  setHandler(networkAnsweredSignal, () => {
    notified = true;
  });

  const persisted = await acceptCalls.persistTransfer(input.draft).catch((err): Persisted => {
    if (!permanentFailure(err, transactionId)) throw err;
    return { outcome: 'refused', refusal: UNPROCESSABLE };
  });
  if (persisted.outcome === 'refused') {
    decision = { refusal: persisted.refusal };
    await condition(allHandlersFinished);
    return null;
  }
  let transaction = readTransaction(persisted.transaction);
  const accepted: AcceptDecision = { transaction, fingerprint: persisted.fingerprint, createdByThisRun: persisted.created };

  // The key may name another operation (a charge, or a transfer this run did not create and that is final).
  if (transaction.id === transactionId && transaction.status === 'pending') {
    // Runs whose persist step did not say `remote` (before it existed, or on the simulator) take the old path.
    remote = persisted.remote === true && patched(REMOTE_ROUTE_CALLS);
    // Answered once the route holds the transfer, so that it can be settled from then on.
    const sent = await send();
    decision = accepted;
    const outcome = sent.status === 'pending' ? await awaitAnswer() : sent;
    transaction = await settle(outcome);
  } else {
    decision = accepted;
  }
  await condition(allHandlersFinished);
  return transaction;

  async function send(): Promise<RouteTransferState> {
    try {
      return await (remote ? remoteCalls : acceptCalls).sendTransferAtRoute(input.draft);
    } catch (err) {
      const refusal = routeRefusal(err);
      if (!refusal) throw err;
      return { status: 'failed', reason: refusal.message };
    }
  }

  async function awaitAnswer(): Promise<Exclude<RouteTransferState, { status: 'pending' }>> {
    for (let poll = 0; ; poll++) {
      if (poll >= POLLS_PER_RUN) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof transferWorkflow>(input);
      }
      await condition(() => notified, remote ? remotePollDelayMs(poll) : pollDelayMs(poll));
      notified = false;
      const state = await routeCalls.transferStateAtRoute(transactionId);
      if (state.status !== 'pending') return state;
    }
  }

  async function settle(outcome: Exclude<RouteTransferState, { status: 'pending' }>): Promise<TransactionState> {
    // Runs started before the patch settle, then dispatch each event in an activity of its own.
    const dispatching = patched(SETTLE_DISPATCHES_EVENTS);
    const options: [SettleOptions] | [] = dispatching ? [{ dispatch: true, firstAttemptNow: true }] : [];
    const settled =
      outcome.status === 'approved'
        ? await ledgerCalls.settleTransferApproved(transactionId, outcome.settledAt, ...options)
        : await ledgerCalls.settleTransferFailed(transactionId, outcome.reason, ...options);
    if (!dispatching) for (const eventId of settled.eventIds) await ledgerCalls.dispatchEvent(eventId);
    return readTransaction(settled.transaction);
  }
};
