// One workflow per refund, id `refund:<accountId>:<idempotency key>`. It accepts the refund (the
// `rfd_` row, the reservation available → reserved and `refund.created` in one PostgreSQL
// transaction, then the hand-over to the charge's route) while the admin API waits on the `accept`
// update, waits for the route's answer (the `networkAnswered` signal, with polling as a fallback), and
// settles once: approved settles the reservation to Pix clearing, failed releases it.
import { allHandlersFinished, condition, continueAsNew, setHandler } from '@temporalio/workflow';
import type { RefundActivities } from '../activities/refunds.js';
import {
  acceptUpdate,
  remotePollDelayMs,
  UNPROCESSABLE,
  type Persisted,
  type TransactionState,
} from '../contracts/transaction.contract.js';
import type { RefundWorkflow, RouteRefundState } from '../contracts/refund.contract.js';
import { networkAnsweredSignal, POLLS_PER_RUN, pollDelayMs } from '../contracts/transfer.contract.js';
import {
  acceptAnswer,
  permanentFailure,
  readTransaction,
  routeRefusal,
  transactionActivityCalls,
  type AcceptDecision,
} from './transaction-activities.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<RefundActivities>();

type Outcome = Exclude<RouteRefundState, { status: 'pending' }>;

export const refundWorkflow: RefundWorkflow = async (input) => {
  const { refundId } = input.draft;
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

  const persisted = await acceptCalls.persistRefund(input.draft).catch((err): Persisted => {
    if (!permanentFailure(err, refundId)) throw err;
    return { outcome: 'refused', refusal: UNPROCESSABLE };
  });
  if (persisted.outcome === 'refused') {
    decision = { refusal: persisted.refusal };
    await condition(allHandlersFinished);
    return null;
  }
  let refund = readTransaction(persisted.transaction);
  const accepted: AcceptDecision = { transaction: refund, fingerprint: persisted.fingerprint, createdByThisRun: persisted.created };

  if (refund.id === refundId && refund.status === 'pending') {
    remote = persisted.remote === true;
    // Answered once the route holds the refund, so that it can be settled from then on.
    const sent = await send();
    decision = accepted;
    await ledgerCalls.dispatchEvent(`evt_${refundId}_created`);
    refund = await settle(sent.status === 'pending' ? await awaitAnswer() : sent);
  } else {
    decision = accepted;
  }
  await condition(allHandlersFinished);
  return refund;

  async function send(): Promise<RouteRefundState> {
    try {
      return await (remote ? remoteCalls : acceptCalls).sendRefundAtRoute(refundId);
    } catch (err) {
      const refusal = routeRefusal(err);
      if (!refusal) throw err;
      return { status: 'failed', reason: refusal.message };
    }
  }

  async function awaitAnswer(): Promise<Outcome> {
    for (let poll = 0; ; poll++) {
      if (poll >= POLLS_PER_RUN) {
        await condition(allHandlersFinished);
        await continueAsNew<typeof refundWorkflow>(input);
      }
      await condition(() => notified, remote ? remotePollDelayMs(poll) : pollDelayMs(poll));
      notified = false;
      const state = await routeCalls.refundStateAtRoute(refundId);
      if (state.status !== 'pending') return state;
    }
  }

  async function settle(outcome: Outcome): Promise<TransactionState> {
    const options = { dispatch: true, firstAttemptNow: true };
    const settled =
      outcome.status === 'approved'
        ? await ledgerCalls.settleRefundApproved(refundId, outcome.settledAt, options)
        : await ledgerCalls.settleRefundFailed(refundId, outcome.reason, options);
    return readTransaction(settled.transaction);
  }
};
