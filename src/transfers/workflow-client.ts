// Every call the engine makes to a transfer's workflow (src/transfers/contract.ts): the start
// with the `accept` update (or joining the run of the key), bounded by ACCEPT_WAIT_MS, and the
// `networkAnswered` signal.
import type { Deps } from '../runtime/deps.js';
import type { TIMED_OUT } from '../async/within.js';
import { acceptWithStart, type TransactionWorkflow } from '../temporal/accept-with-start.js';
import { signalTransactionWorkflow } from '../transactions/notify.js';
import type { AcceptOutcome } from '../../contracts/transaction.contract.js';
import { networkAnsweredSignal, TRANSFER_WORKFLOW, transferWorkflowId, type TransferWorkflowInput } from './contract.js';

const TRANSFER: TransactionWorkflow = { type: TRANSFER_WORKFLOW, workflowId: transferWorkflowId };

/** Starts the transfer's workflow (or joins the key's) and waits for its accept step; TIMED_OUT when it did not answer in time. */
export function startTransfer(deps: Deps, input: TransferWorkflowInput, fingerprint: string): Promise<AcceptOutcome | typeof TIMED_OUT> {
  return acceptWithStart(deps, TRANSFER, input, fingerprint);
}

/** Waits for the transfer's workflow to end (its settlement); resolves to what the run returned. */
export function transferSettled(deps: Pick<Deps, 'temporal'>, accountId: string, key: string): Promise<unknown> {
  return deps.temporal.workflow.getHandle(transferWorkflowId(accountId, key)).result();
}

/** The route's notification that it answered a transfer. */
export function notifyTransferAnswered(deps: Pick<Deps, 'sql' | 'temporal' | 'log'>, transactionId: string): Promise<void> {
  return signalTransactionWorkflow(deps, transactionId, {
    type: 'withdrawal',
    signal: networkAnsweredSignal,
    workflowId: transferWorkflowId,
    unknown: 'route answer for an unknown transfer',
    undelivered: 'route answer not delivered to the workflow; polling will settle it',
  });
}
