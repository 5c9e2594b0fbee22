// Every call the engine makes to a refund's workflow (src/refunds/contract.ts): the start with
// the `accept` update (or joining the run of the key), bounded by ACCEPT_WAIT_MS, the wait for its
// settlement, and the `networkAnswered` signal.
import type { Deps } from '../runtime/deps.js';
import type { TIMED_OUT } from '../async/within.js';
import { acceptWithStart, type TransactionWorkflow } from '../temporal/accept-with-start.js';
import type { AcceptOutcome } from '../../contracts/transaction.contract.js';
import { REFUND_WORKFLOW, refundWorkflowId, type RefundWorkflowInput } from './contract.js';
import { networkAnsweredSignal } from '../transfers/contract.js';
import { findRefund } from './repository.js';

const REFUND: TransactionWorkflow = { type: REFUND_WORKFLOW, workflowId: refundWorkflowId };

/** Starts the refund's workflow (or joins the key's) and waits for its accept step; TIMED_OUT when it did not answer in time. */
export function startRefund(deps: Deps, input: RefundWorkflowInput): Promise<AcceptOutcome | typeof TIMED_OUT> {
  return acceptWithStart(deps, REFUND, input, input.draft.fingerprint);
}

/** Waits for the refund's workflow to end (its settlement). */
export function refundSettled(deps: Pick<Deps, 'temporal'>, accountId: string, key: string): Promise<unknown> {
  return deps.temporal.workflow.getHandle(refundWorkflowId(accountId, key)).result();
}

/** The route's notification that it answered a refund: the workflow asks the route now instead of at its next poll. */
export async function notifyRefundAnswered(deps: Pick<Deps, 'sql' | 'temporal' | 'log'>, refundId: string): Promise<void> {
  const refund = await findRefund(deps.sql, refundId);
  if (!refund) {
    deps.log.warn({ refundId }, 'route answer for an unknown refund');
    return;
  }
  try {
    await deps.temporal.workflow.getHandle(refundWorkflowId(refund.accountId, refund.idempotencyKey)).signal(networkAnsweredSignal);
  } catch (err) {
    deps.log.warn({ err, refundId }, 'route answer not delivered to the refund workflow; polling will settle it');
  }
}
