// Every call the engine makes to a charge's workflow (src/charges/contract.ts): the start with
// the `accept` update (or joining the run of the key), the `refresh` update, and the
// `paymentNotified` signal. Each wait is bounded by ACCEPT_WAIT_MS.
import type { Deps } from '../runtime/deps.js';
import { TIMED_OUT, within } from '../async/within.js';
import { acceptWithStart, refusedWhileTaskFails, type TransactionWorkflow } from '../temporal/accept-with-start.js';
import { signalTransactionWorkflow } from '../transactions/notify.js';
import { CHARGE_WORKFLOW, chargeWorkflowId, paymentNotifiedSignal, refreshUpdate, type ChargeWorkflowInput } from './contract.js';
import { acceptUpdate, type AcceptOutcome } from '../../contracts/transaction.contract.js';

const CHARGE: TransactionWorkflow = { type: CHARGE_WORKFLOW, workflowId: chargeWorkflowId };

/** Starts the charge's workflow (or joins the key's) and waits for its accept step; TIMED_OUT when it did not answer in time. */
export function startCharge(deps: Deps, input: ChargeWorkflowInput, fingerprint: string): Promise<AcceptOutcome | typeof TIMED_OUT> {
  return acceptWithStart(deps, CHARGE, input, fingerprint);
}

/** A repeat of a charge still being accepted: the accept update of the key's running workflow. */
export function joinCharge(
  deps: Deps,
  accountId: string,
  key: string,
  requestId: string,
  fingerprint: string,
): Promise<AcceptOutcome | typeof TIMED_OUT> {
  const accepted = deps.temporal.workflow
    .getHandle(chargeWorkflowId(accountId, key))
    .executeUpdate(acceptUpdate, { args: [{ requestId, fingerprint }] });
  return within(accepted, deps.config.acceptWaitMs).catch((err: unknown) => (refusedWhileTaskFails(err) ? TIMED_OUT : Promise.reject(err)));
}

/** Asks the workflow of a pending charge to ask its route (it settles when the route says paid). */
export async function refreshAtRoute(deps: Pick<Deps, 'temporal' | 'config'>, accountId: string, key: string): Promise<void> {
  await within(deps.temporal.workflow.getHandle(chargeWorkflowId(accountId, key)).executeUpdate(refreshUpdate), deps.config.acceptWaitMs);
}

/** The route's notification that a charge was paid. */
export function notifyChargePaid(deps: Pick<Deps, 'sql' | 'temporal' | 'log'>, transactionId: string): Promise<void> {
  return signalTransactionWorkflow(deps, transactionId, {
    type: 'payment',
    signal: paymentNotifiedSignal,
    workflowId: chargeWorkflowId,
    unknown: 'payment notification for an unknown charge',
    undelivered: 'payment notification not delivered to the workflow; expiry or refresh will settle it',
  });
}
