// One workflow per transfer, id `transfer:<accountId>:<idempotency key>`. It accepts the transfer
// (the `out_` row and the reservation available → reserved in one PostgreSQL transaction, then the
// hand-over to the account's route) while the API waits on the `accept` update, waits for the route's
// answer (the `networkAnswered` signal, with polling as a fallback), and settles once: approved
// settles the reservation, failed releases it. On a remote route (a PSP) the send is a regular
// activity and the polling follows the remote schedule.
import { allHandlersFinished, condition, continueAsNew, patched, setHandler } from '@temporalio/workflow';
import type { TransferActivities } from '../activities/transfers.js';
import type { PersistedTransfer, RouteTransferState } from '../src/transfers/draft.js';
import type { Transaction } from '../src/transactions/serialize.js';
import { REMOTE_ROUTE_CALLS, remotePollDelayMs, SETTLE_DISPATCHES_EVENTS, UNPROCESSABLE, type SettleOptions } from './transaction.contract.js';
import { networkAnsweredSignal, POLLS_PER_RUN, pollDelayMs, transferAcceptUpdate, type TransferAcceptResult, type TransferWorkflow } from './transfer.contract.js';
import { permanentFailure, routeRefusal, transactionActivityCalls } from './transaction-activities.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<TransferActivities>();

export const transferWorkflow: TransferWorkflow = async (input) => {
  const transactionId = input.draft.transactionId;
  let answer: TransferAcceptResult | null = null;
  let fingerprint: string | null = null;
  let createdByThisRun = false;
  let notified = false;
  let remote = false;

  setHandler(transferAcceptUpdate, async (request): Promise<TransferAcceptResult> => {
    await condition(() => answer !== null);
    if (answer!.outcome !== 'created') return answer!;
    if (request.fingerprint !== fingerprint) return { outcome: 'conflict' };
    const created = createdByThisRun && request.requestId === input.requestId;
    return { outcome: created ? 'created' : 'repeated', transaction: answer!.transaction };
  });

  setHandler(networkAnsweredSignal, () => {
    notified = true;
  });

  const persisted = await acceptCalls.persistTransfer(input.draft).catch((err): PersistedTransfer => {
    if (!permanentFailure(err, transactionId)) throw err;
    return { outcome: 'refused', refusal: UNPROCESSABLE };
  });
  if (persisted.outcome === 'refused') {
    answer = persisted;
    await condition(allHandlersFinished);
    return null;
  }
  fingerprint = persisted.fingerprint;
  createdByThisRun = persisted.created;
  let transaction = persisted.transaction;

  // The key may name another operation (a charge, or a transfer this run did not create and that is final).
  if (transaction.id === transactionId && transaction.status === 'pending') {
    // Runs whose persist step did not say `remote` (before it existed, or on the simulator) take the old path.
    remote = persisted.remote === true && patched(REMOTE_ROUTE_CALLS);
    // Answered once the route holds the transfer, so that it can be settled from then on.
    const sent = await send();
    answer = { outcome: 'created', transaction };
    const outcome = sent.status === 'pending' ? await awaitAnswer() : sent;
    transaction = await settle(outcome);
  } else {
    answer = { outcome: 'created', transaction };
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

  async function settle(outcome: Exclude<RouteTransferState, { status: 'pending' }>): Promise<Transaction> {
    // Runs started before the patch settle, then dispatch each event in an activity of its own.
    const dispatching = patched(SETTLE_DISPATCHES_EVENTS);
    const options: [SettleOptions] | [] = dispatching ? [{ dispatch: true, firstAttemptNow: true }] : [];
    const settled =
      outcome.status === 'approved'
        ? await ledgerCalls.settleTransferApproved(transactionId, outcome.settledAt, ...options)
        : await ledgerCalls.settleTransferFailed(transactionId, outcome.reason, ...options);
    if (!dispatching) for (const eventId of settled.eventIds) await ledgerCalls.dispatchEvent(eventId);
    return settled.transaction;
  }
};
