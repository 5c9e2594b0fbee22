// What the charge and transfer workflows share with the code that starts them and with their
// activities: the `accept` update's request and answer, the failure types an activity reports for
// what retrying cannot change, the refusal of data PostgreSQL would not store, and the activities'
// retry policy. Imported by src/, activities/ and workflows/: it imports only Temporal's definitions
// and types.
import type { DraftBasics } from '../src/transactions/draft.js';
import type { Transaction } from '../src/transactions/serialize.js';

/** What a charge's or a transfer's workflow starts with (each adds its own fields). */
export interface TransactionWorkflowInput {
  /** The request that started the workflow: only its accept update is answered 201. */
  requestId: string;
  draft: DraftBasics;
}

/** What the `accept` update of a transaction workflow is asked with. */
export interface AcceptRequest {
  requestId: string;
  fingerprint: string;
}

/** A refusal of the accept step as it travels through Temporal: what the API answers to every request that joins it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** What an accept update answers, whichever the workflow (`R`: the refusals it can carry). */
export type AcceptOutcome<R = Refusal> =
  | { outcome: 'created' | 'repeated'; transaction: Transaction }
  | { outcome: 'conflict' }
  | { outcome: 'refused'; refusal: R };

/** The failure type a route's definitive refusal travels under (the route said no, as opposed to being unreachable). */
export const ROUTE_REFUSED = 'RouteRefused';

/** An activity failed on data PostgreSQL refuses to store or read (SQLSTATE classes 22 and 23): retrying cannot help. */
export const PERMANENT_DATA_ERROR = 'PermanentDataError';

/** The accept step failed on data PostgreSQL would not store (a permanent error): nothing was kept. */
export const UNPROCESSABLE: Refusal = {
  status: 400,
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
 * as before (retried, or the charge settled failed on a refusal). Runs started before it persist, then
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
