// What the charge and transfer workflows share with the code that starts them and with their
// activities: the draft every transaction starts from, the state a workflow keeps of its transaction,
// the `accept` protocol (its request, the accept step's answer and the update's answer, the refusal), the
// failure types an activity reports for what retrying cannot change, and the activities' retry policy.
// Imported by src/, activities/ and workflows/: it imports only Temporal's definitions and other contracts.
import { defineUpdate } from '@temporalio/workflow';

/** A transaction computed and checked by the API before its workflow starts, as every kind carries it. */
export interface DraftBasics {
  transactionId: string;
  accountId: string;
  apiKeyId: string;
  externalId: string;
  /** Hex SHA-256 of the fields the idempotency rules compare. */
  fingerprint: string;
  route: string;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  description: string | null;
  /** The client's key-value pairs (src/transactions/metadata.ts); absent in runs started before they existed, and when none was sent. */
  metadata?: Record<string, string>;
}

/** What a transaction's workflow starts with (each kind adds its own fields). */
export interface TransactionWorkflowInput {
  /** The request that started the workflow: only its accept update is answered 201. */
  requestId: string;
  draft: DraftBasics;
}

export type TransactionStatus = 'pending' | 'approved' | 'failed' | 'cancelled' | 'refunded';

/**
 * A transaction as its workflow knows it: what the workflow decides on. The public object (reais, ISO
 * dates, the QR code) is the edge's, built from the read model.
 */
export interface TransactionState {
  id: string;
  status: TransactionStatus;
}

/** What the `accept` update of a transaction workflow is asked with. */
export interface AcceptRequest {
  requestId: string;
  fingerprint: string;
}

/**
 * Why the accept step refused an operation (nothing was kept), as it travels through Temporal: the
 * core's code and message (src/domain/refusal.ts), and why when the code alone says too little. The
 * edge answers it with the HTTP status of its code (src/http/refusal-status.ts).
 */
export interface Refusal {
  code: string;
  message: string;
  /** `withdrawals_blocked`: an invalid_request the spec answers 423. */
  reason?: string;
  /** The JSON pointer of the one field of the request to blame (`/amount`); absent when the refusal blames no one field. */
  param?: string;
}

/** What the accept (persist) step of every kind answers: the key's transaction as persisted, or the refusal. */
export type Persisted<S extends TransactionState = TransactionState> =
  | {
      outcome: 'persisted';
      transaction: S;
      fingerprint: string;
      /** False when the row already existed (a retried activity, or a later run for the same key). */
      created: boolean;
      /** The transaction's route is reached over the network (a PSP); absent in runs recorded before it was said. */
      remote?: boolean;
    }
  | { outcome: 'refused'; refusal: Refusal };

/**
 * A route's answer about money the engine sends out (a transfer, a refund), in a form that travels
 * through Temporal (dates as ISO strings).
 */
export type RouteState = { status: 'pending' } | { status: 'approved'; settledAt: string } | { status: 'failed'; reason: string };

/** What the `accept` update of every kind answers; the edge reads the transaction it names from the read model. */
export type AcceptOutcome =
  { outcome: 'created' | 'repeated'; transaction: TransactionState } | { outcome: 'conflict' } | { outcome: 'refused'; refusal: Refusal };

/**
 * Every transaction workflow's `accept` update: the API starts the workflow with it (or joins the key's
 * run), and every request of the key learns the accept step's decision from it.
 */
export const acceptUpdate = defineUpdate<AcceptOutcome, [AcceptRequest]>('accept');

/** What a settlement activity answers: the transaction settled, and the events recorded with the change. */
export interface Settled<S extends TransactionState = TransactionState> {
  transaction: S;
  eventIds: string[];
}

/** The failure type a route's definitive refusal travels under (the route said no, as opposed to being unreachable). */
export const ROUTE_REFUSED = 'RouteRefused';

/**
 * An activity failed on data PostgreSQL refuses to store or read (SQLSTATE classes 22 and 23), or on an
 * amount the engine cannot compute with exactly: retrying cannot help.
 */
export const PERMANENT_DATA_ERROR = 'PermanentDataError';

/** The accept step failed on data PostgreSQL would not store (a permanent error): nothing was kept. */
export const UNPROCESSABLE: Refusal = {
  code: 'invalid_request',
  message: 'Os dados da operação não puderam ser processados; nada foi criado. Corrija o conteúdo e tente novamente',
};

/** A route outage must not lose a transaction: retry without an attempt limit, backing off to a minute. */
export const TRANSACTION_ACTIVITY_RETRY = {
  initialInterval: '200 ms',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  nonRetryableErrorTypes: [ROUTE_REFUSED],
};

/**
 * From this patch on, a settlement activity dispatches the events it recorded itself (one activity
 * instead of settle + dispatchEvent per event). Runs started before it keep the two steps.
 */
export const SETTLE_DISPATCHES_EVENTS = 'settle-dispatches-events';

/**
 * From this patch on, a transaction whose persist step says its route is remote (a PSP reached over the
 * network) is created or sent at the route by a regular activity, with its own timeouts and retries,
 * instead of the local activity that suits the in-process simulator; and the workflow polls the route
 * while the transaction is pending (remotePollDelayMs). Runs started before it, and simulator runs,
 * schedule what they always did.
 */
export const REMOTE_ROUTE_CALLS = 'remote-route-calls';

/**
 * From this patch on, a charge on the in-process simulator asks the route for its state and settles in
 * local activities, in the workflow task that receives the payment notice, instead of a regular activity
 * (one server round trip) per step. Runs started before it, and remote routes, keep regular activities.
 */
export const LOCAL_SETTLEMENT = 'local-settlement';

/**
 * From this patch on, the charge's accept step is one local activity, persistAndOpenCharge: it persists
 * the charge and, on the in-process simulator, opens it at the route, so the API's answer waits for one
 * activation of the workflow instead of two. Should that open fail, the workflow's own open step runs
 * (retried, or the charge settled failed on a refusal). Runs started before it persist, then
 * open, in two local activities.
 */
export const PERSIST_AND_OPEN = 'persist-and-open';

/** Polling of a remote route while a transaction is pending: first after 5 s, doubling to once a minute. */
export function remotePollDelayMs(poll: number): number {
  return Math.min(5000 * 2 ** poll, 60_000);
}

/** How a workflow asks its settlement activity to dispatch the events it records. */
export interface SettleOptions {
  dispatch: boolean;
  /**
   * Each new delivery's first attempt is made at once by the settling activity, and only a delivery
   * whose first attempt failed gets a delivery workflow, told the outcome, which makes the retries
   * (webhook-delivery.contract.ts; src/webhooks/dispatch.ts).
   */
  firstAttemptNow?: boolean;
}

/** What every settlement asks from SETTLE_DISPATCHES_EVENTS on: its events dispatched, each first attempt made at once. */
export const DISPATCH_AT_ONCE: SettleOptions = { dispatch: true, firstAttemptNow: true };
