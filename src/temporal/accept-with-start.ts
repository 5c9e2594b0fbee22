// How the API starts a charge's or a transfer's workflow: update-with-start of the workflow's
// `accept` update (starting the workflow, or joining the one already running for the key), waited
// for a bounded time (ACCEPT_WAIT_MS).
import { isGrpcServiceError, ServiceError, WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';
import { unavailable } from '../domain/refusal.js';
import { withinAcceptWait } from './within-accept-wait.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from './search-attributes.js';
import { acceptUpdate, type AcceptOutcome } from '../../contracts/transaction.contract.js';
import { WORKFLOW_TASK_TIMEOUT } from './timeouts.js';

/** A charge's, a transfer's or a refund's workflow, as its contract names it. */
export interface TransactionWorkflow {
  type: string;
  workflowId(accountId: string, key: string): string;
}

/** What such a workflow starts with: its draft names the account, the key and the transaction (a refund's: the charge). */
export interface AcceptedInput {
  requestId: string;
  draft: { accountId: string; externalId: string; transactionId: string };
}

/** gRPC's FAILED_PRECONDITION. */
const FAILED_PRECONDITION = 9;

/**
 * Temporal refuses an update while the workflow's task is failing (no worker has run it yet: one without
 * the payload key, say): the workflow exists and its accept step has not decided, as after a wait that ran
 * out, so the request is answered 202, not 500.
 */
export function refusedWhileTaskFails(err: unknown): boolean {
  // An update's refusal is a ServiceError around the gRPC one; an update-with-start's is the gRPC error
  // itself, carrying the update's own status in its message (the SDK's rethrowKnownErrorTypes).
  const grpc = err instanceof ServiceError ? err.cause : err;
  return (
    isGrpcServiceError(grpc) &&
    grpc.code === FAILED_PRECONDITION &&
    /Workflow Task in failed state/i.test(`${grpc.message} ${grpc.details}`)
  );
}

/** How long the reachability check after a timed-out wait may take (Temporal's client retries a lost connection for longer). */
const REACHABILITY_WAIT_MS = 2000;
/**
 * After a bounded wait ran out: a 202 promises that the operation is under way, so it is given only
 * when Temporal answers about the workflow (it exists, or, when `startInFlight`, its start is still
 * being sent). When Temporal does not answer at all, the start did not get through: 503, and the
 * client repeats with the same key (spec idempotency rule 8).
 */
export async function ensureStarted(deps: Deps, workflowId: string, startInFlight = true): Promise<void> {
  const reachable = await within(
    deps.temporal.workflow
      .getHandle(workflowId)
      .describe()
      .then(
        () => true,
        (err) => startInFlight && err instanceof WorkflowNotFoundError,
      ),
    REACHABILITY_WAIT_MS,
  );
  if (reachable !== true) {
    throw unavailable('Processamento temporariamente indisponível; repita a requisição com a mesma chave de idempotência');
  }
}

/**
 * The accept update's answer, or TIMED_OUT when the wait ran out (withinAcceptWait: once the call
 * can send nothing more) and Temporal knows of the workflow; 503 when it does not. The workflow is
 * keyed by the draft's account and key.
 */
export async function acceptWithStart(
  deps: Deps,
  workflow: TransactionWorkflow,
  input: AcceptedInput,
  fingerprint: string,
): Promise<AcceptOutcome | typeof TIMED_OUT> {
  const { requestId, draft } = input;
  const workflowId = workflow.workflowId(draft.accountId, draft.externalId);
  const answer = withinAcceptWait(deps, () =>
    deps.temporal.workflow.executeUpdateWithStart(acceptUpdate, {
      args: [{ requestId, fingerprint }],
      updateId: requestId,
      startWorkflowOperation: new WithStartWorkflowOperation(workflow.type, {
        workflowId,
        taskQueue: deps.config.temporalTaskQueue,
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
        args: [input],
        typedSearchAttributes: [
          { key: ACCOUNT_ID_ATTRIBUTE, value: draft.accountId },
          { key: TRANSACTION_ID_ATTRIBUTE, value: draft.transactionId },
        ],
      }),
    }),
  );
  const result = await answer.catch((err: unknown) => (refusedWhileTaskFails(err) ? TIMED_OUT : Promise.reject(err)));
  if (result !== TIMED_OUT) return result;
  await ensureStarted(deps, workflowId, false);
  return TIMED_OUT;
}
