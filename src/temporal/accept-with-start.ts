// How the API starts a charge's or a transfer's workflow: update-with-start of the workflow's
// `accept` update (starting the workflow, or joining the one already running for the key), waited
// for a bounded time (ACCEPT_WAIT_MS).
import { isGrpcDeadlineError, WithStartWorkflowOperation, WorkflowNotFoundError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';
import { unavailable } from '../domain/refusal.js';
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

/** How long the reachability check after a timed-out wait may take (Temporal's client retries a lost connection for longer). */
const REACHABILITY_WAIT_MS = 2000;
/** How long a start may still be sent after the wait ran out (a healthy Temporal takes milliseconds). */
const START_GRACE_MS = 500;

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
 * The accept update's answer, or TIMED_OUT when the wait ran out and Temporal confirmed it knows of
 * the workflow (503 when it does not answer). The workflow is keyed by the draft's account and key.
 * The call has a deadline shortly after the wait, and a request that waited answers only once it has
 * passed, so that nothing of the request reaches Temporal after its answer. Without it the client would
 * go on sending the start (it retries an unreachable Temporal from a timer, which an abort signal does
 * not stop, and sends the start again until the update is accepted), and could start a new run of the
 * key after its run had ended and the key had been answered, e.g. refused to a repeat of the request:
 * an operation nobody asked for any more.
 */
export async function acceptWithStart(
  deps: Deps,
  workflow: TransactionWorkflow,
  input: AcceptedInput,
  fingerprint: string,
): Promise<AcceptOutcome | typeof TIMED_OUT> {
  const { requestId, draft } = input;
  const workflowId = workflow.workflowId(draft.accountId, draft.externalId);
  const deadline = Date.now() + deps.config.acceptWaitMs + START_GRACE_MS;
  const accepted = deps.temporal.withDeadline(deadline, () =>
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
  const result = await within(
    accepted.catch((err: unknown) => (isGrpcDeadlineError(err) ? TIMED_OUT : Promise.reject(err))),
    deps.config.acceptWaitMs,
  );
  if (result !== TIMED_OUT) return result;
  // Answered once the call can send nothing more (its deadline), so that Temporal knows by then all it ever will of it.
  await within(
    accepted.catch(() => undefined),
    Math.max(0, deadline - Date.now()),
  );
  await ensureStarted(deps, workflowId, false);
  return TIMED_OUT;
}
