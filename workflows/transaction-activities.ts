// How the charge and transfer workflows call their activities, read what they answered (runs recorded
// before included), recognise a route's definitive refusal, and answer the `accept` update. Workflow code
// (proxies run only inside a workflow): it imports only @temporalio/workflow and contracts.
import { ActivityFailure, ApplicationFailure, log, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { ChargeTransactionState } from '../src/charges/contract.js';
import { HEARTBEAT_TIMEOUT } from '../contracts/heartbeat.contract.js';
import {
  PERMANENT_DATA_ERROR,
  ROUTE_REFUSED,
  TRANSACTION_ACTIVITY_RETRY as retry,
  type AcceptOutcome,
  type AcceptRequest,
  type Refusal,
  type TransactionState,
  type TransactionStatus,
} from '../contracts/transaction.contract.js';

/** Calls to the route, calls that settle in the ledger, and the accept step's calls, for activities `A`. */
export function transactionActivityCalls<A>() {
  return {
    routeCalls: proxyActivities<A>({ startToCloseTimeout: '15 seconds', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry }),
    ledgerCalls: proxyActivities<A>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry }),
    // The accept step runs while the API waits: local activities run in the worker within the workflow
    // task, saving a server round trip per step. Past the local retry threshold a retry becomes a
    // durable timer, so a long outage still waits without holding the task.
    acceptCalls: proxyLocalActivities<A>({ startToCloseTimeout: '15 seconds', retry, localRetryThreshold: '10 seconds' }),
    // The accept step's creation or send call on a remote route (REMOTE_ROUTE_CALLS): a PSP can take
    // seconds and fail in ways of its own, so the call is a regular activity, scheduled by the server,
    // with a start-to-close bound above the PSP client's own timeouts, heartbeats, and the unbounded retry.
    // A charge's confirmation at a remote route that settles a paid charge (CONFIRM_AND_SETTLE) is one
    // too: a PSP call and then the settlement's first webhook attempts fit in its bound.
    remoteCalls: proxyActivities<A>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry }),
  };
}

/** An activity's non-retryable failure of `type`: wrapped in an ActivityFailure by a regular activity, bare from a local one. */
function failureOfType(err: unknown, type: string): ApplicationFailure | null {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure && failure.type === type ? failure : null;
}

/** The route's definitive refusal. */
export function routeRefusal(err: unknown): ApplicationFailure | null {
  return failureOfType(err, ROUTE_REFUSED);
}

/**
 * A PostgreSQL data or constraint error, which no retry can change: logged for operators with the
 * word `alert` and the transaction id (the Web UI shows the failed activity too).
 */
export function permanentFailure(err: unknown, transactionId: string): ApplicationFailure | null {
  const failure = failureOfType(err, PERMANENT_DATA_ERROR);
  if (failure)
    log.error('alert: operation stopped by a permanent data error', {
      alert: 'permanent_data_error',
      transactionId,
      error: failure.message,
    });
  return failure;
}

/**
 * The public transaction (reais, ISO dates, the QR code) that the activities answered in runs recorded
 * before the workflows kept a state of their own: the part of it they read.
 */
interface RecordedTransaction {
  id: string;
  status: TransactionStatus;
  expiresAt: string;
  pix: object | null;
}

/** A transaction as an activity answered it: its state, or the public transaction of a run recorded before. */
export function readTransaction(answered: TransactionState | RecordedTransaction): TransactionState {
  return { id: answered.id, status: answered.status };
}

/** A charge as an activity answered it: its state, or the public transaction of a run recorded before. */
export function readCharge(answered: ChargeTransactionState | RecordedTransaction): ChargeTransactionState {
  if (!('expiresAt' in answered)) return answered;
  return { id: answered.id, status: answered.status, expiresAtMs: Date.parse(answered.expiresAt), opened: answered.pix !== null };
}

/** What the accept step decided: the refusal, or the key's transaction (`fingerprint` null: the key is another operation's). */
export type AcceptDecision =
  { refusal: Refusal } | { transaction: TransactionState; fingerprint: string | null; createdByThisRun: boolean };

/** The `accept` update's answer to `request`, from the decision; `startRequestId`: the request that started the run. */
export function acceptAnswer(decision: AcceptDecision, request: AcceptRequest, startRequestId: string): AcceptOutcome {
  if ('refusal' in decision) return { outcome: 'refused', refusal: decision.refusal };
  if (decision.fingerprint === null || request.fingerprint !== decision.fingerprint) return { outcome: 'conflict' };
  const created = decision.createdByThisRun && request.requestId === startRequestId;
  return { outcome: created ? 'created' : 'repeated', transaction: decision.transaction };
}
