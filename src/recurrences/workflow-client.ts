// Every call the engine makes to a recurrence's workflow (src/recurrences/contract.ts): its start
// (once per recurrence, joined by a repeated request) and its `change` update, bounded by ACCEPT_WAIT_MS.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { Deps } from '../runtime/deps.js';
import { within, TIMED_OUT } from '../async/within.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { Refusal } from '../domain/refusal.js';
import {
  changeUpdate,
  RECURRENCE_WORKFLOW,
  recurrenceWorkflowId,
  type RecurrenceChange,
  type RecurrenceStatus,
  type RecurrenceWorkflowInput,
} from './contract.js';
import type { RecurrenceRow } from './row.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import { TRANSACTION_STATUS_ATTRIBUTE } from '../../contracts/transaction-status.contract.js';

export function recurrenceWorkflowInput(deps: Deps, row: RecurrenceRow): RecurrenceWorkflowInput {
  return {
    recurrenceId: row.id,
    accountId: row.accountId,
    frequency: row.frequency,
    firstDueDate: row.firstDueDate,
    endDate: row.endDate,
    fixedAmount: row.amountCents !== null,
    leadDays: deps.config.recurrenceLeadDays,
    authorizationExpiresAtMs: row.authorization.expiresAt.getTime(),
    ...(row.routeRef === null ? {} : { remote: true }),
  };
}

/** Starts the recurrence's workflow; one already started for it is the same recurrence. */
export async function startRecurrence(deps: Deps, row: RecurrenceRow): Promise<void> {
  try {
    await deps.temporal.workflow.start(RECURRENCE_WORKFLOW, {
      workflowId: recurrenceWorkflowId(row.accountId, row.externalId),
      taskQueue: deps.config.temporalTaskQueue,
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
      args: [recurrenceWorkflowInput(deps, row)],
      typedSearchAttributes: [
        { key: ACCOUNT_ID_ATTRIBUTE, value: row.accountId },
        { key: TRANSACTION_ID_ATTRIBUTE, value: row.id },
        { key: TRANSACTION_STATUS_ATTRIBUTE, value: row.status },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** A status that does not take the change. */
const notNow = (status: string, change: RecurrenceChange['change']) =>
  new Refusal('invalid_recurrence_status', `Uma recorrência com status ${status} não aceita ${change}`);

/**
 * Asks the recurrence's workflow for `change` and waits for it (ACCEPT_WAIT_MS): the status after it,
 * or TIMED_OUT (the change goes on; the read model shows it once done). A status that refuses it is refused.
 */
export async function changeRecurrence(
  deps: Deps,
  row: RecurrenceRow,
  change: RecurrenceChange,
): Promise<RecurrenceStatus | typeof TIMED_OUT> {
  const handle = deps.temporal.workflow.getHandle(recurrenceWorkflowId(row.accountId, row.externalId));
  const update = () => within(handle.executeUpdate(changeUpdate, { args: [change] }), deps.config.acceptWaitMs);
  try {
    try {
      return await update();
    } catch (err) {
      // A recurrence stored, still open, whose workflow never started (its creation stopped in between): started now.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
      await startRecurrence(deps, row);
      return await update();
    }
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) throw notNow(row.status, change.change);
    throw err;
  }
}
