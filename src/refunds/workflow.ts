// One workflow per refund, id `refund:<accountId>:<idempotency key>`. It accepts the refund (the
// `rfd_` row, the reservation available → reserved and `refund.created` in one PostgreSQL
// transaction, then the hand-over to the charge's route) while the admin API waits on the `accept`
// update, waits for the route's answer (the `networkAnswered` signal, with polling as a fallback), and
// settles once: approved settles the reservation to Pix clearing, failed releases it (outgoing.ts).
import { patched } from '@temporalio/workflow';
import type { RefundActivities } from './activities.js';
import { REFUNDED_CHARGE_STATUS } from '../../contracts/transaction-status.contract.js';
import type { RefundWorkflow } from './contract.js';
import { DISPATCH_AT_ONCE } from '../../contracts/transaction.contract.js';
import { runOutgoing } from '../../workflows/outgoing.js';
import { transactionActivityCalls } from '../../workflows/transaction-activities.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<RefundActivities>();

export const refundWorkflow: RefundWorkflow = (input) => {
  const { refundId, transactionId } = input.draft;
  return runOutgoing(input, {
    id: refundId,
    persist: () => acceptCalls.persistRefund(input.draft),
    send: (remote) => (remote ? remoteCalls : acceptCalls).sendRefundAtRoute(refundId),
    accepted: () => ledgerCalls.dispatchEvent(`evt_${refundId}_created`),
    stateAtRoute: () => routeCalls.refundStateAtRoute(refundId),
    settle: (answer) =>
      answer.status === 'approved'
        ? ledgerCalls.settleRefundApproved(refundId, answer.settledAt, DISPATCH_AT_ONCE)
        : ledgerCalls.settleRefundFailed(refundId, answer.reason, DISPATCH_AT_ONCE),
    // The settlement that left the charge fully refunded recorded its `transaction.refunded`.
    shownStatus: (settled) =>
      settled.eventIds.includes(`evt_${transactionId}_refunded`) && patched(REFUNDED_CHARGE_STATUS) ? 'refunded' : undefined,
  });
};
