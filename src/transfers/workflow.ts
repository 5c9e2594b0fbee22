// One workflow per transfer, id `transfer:<accountId>:<idempotency key>`. It accepts the transfer
// (the `out_` row and the reservation available → reserved in one PostgreSQL transaction, then the
// hand-over to the account's route) while the API waits on the `accept` update, waits for the route's
// answer (the `networkAnswered` signal, with polling as a fallback), and settles once: approved
// settles the reservation, failed releases it (outgoing.ts). On a remote route (a PSP) the send is a
// regular activity and the polling follows the remote schedule. On the simulator the accept is one
// local activity, and so are the route call and the settlement (TRANSFER_LOCAL_STEPS); a route that
// answers the hand-over with its final word is settled in that same activity (TRANSFER_SETTLES_IN_ACCEPT).
import { patched } from '@temporalio/workflow';
import type { TransferActivities } from './activities.js';
import {
  DISPATCH_AT_ONCE,
  REMOTE_ROUTE_CALLS,
  SETTLE_DISPATCHES_EVENTS,
  type SettleOptions,
} from '../../contracts/transaction.contract.js';
import { TRANSFER_LOCAL_STEPS, TRANSFER_SETTLES_IN_ACCEPT, type TransferWorkflow } from './contract.js';
import { runOutgoing } from '../../workflows/outgoing.js';
import { transactionActivityCalls } from '../../workflows/transaction-activities.js';
import { setStatusAttribute } from '../../workflows/transaction-status.js';

const { routeCalls, ledgerCalls, acceptCalls, remoteCalls } = transactionActivityCalls<TransferActivities>();

export const transferWorkflow: TransferWorkflow = (input) => {
  const transactionId = input.draft.transactionId;
  // Decided before the first step, so that a run started before a patch keeps its steps to the end.
  // Runs of TRANSFER_SETTLES_IN_ACCEPT ask no earlier patch: they all hold for them.
  const settlesInAccept = patched(TRANSFER_SETTLES_IN_ACCEPT);
  const localSteps = settlesInAccept || patched(TRANSFER_LOCAL_STEPS);
  /** The route call and the settlement: local activities on the simulator from TRANSFER_LOCAL_STEPS on. */
  const settlementCalls = (remote: boolean) =>
    localSteps && !remote ? { route: acceptCalls, ledger: acceptCalls } : { route: routeCalls, ledger: ledgerCalls };
  return runOutgoing(input, {
    id: transactionId,
    persist: () =>
      settlesInAccept
        ? acceptCalls.acceptTransfer(input.draft)
        : localSteps
          ? acceptCalls.persistAndSendTransfer(input.draft)
          : acceptCalls.persistTransfer(input.draft),
    remotePatch: settlesInAccept ? undefined : REMOTE_ROUTE_CALLS,
    showStatus: settlesInAccept ? setStatusAttribute : undefined,
    send: (remote) => (remote ? remoteCalls : acceptCalls).sendTransferAtRoute(input.draft),
    stateAtRoute: (remote) => settlementCalls(remote).route.transferStateAtRoute(transactionId),
    async settle(answer, remote) {
      // Runs started before the patch settle, then dispatch each event in an activity of its own.
      const dispatching = settlesInAccept || patched(SETTLE_DISPATCHES_EVENTS);
      const options: [SettleOptions] | [] = dispatching ? [DISPATCH_AT_ONCE] : [];
      const { ledger } = settlementCalls(remote);
      const settled =
        answer.status === 'approved'
          ? await ledger.settleTransferApproved(transactionId, answer.settledAt, ...options)
          : await ledger.settleTransferFailed(transactionId, answer.reason, ...options);
      if (!dispatching) for (const eventId of settled.eventIds) await ledgerCalls.dispatchEvent(eventId);
      return settled;
    },
  });
};
