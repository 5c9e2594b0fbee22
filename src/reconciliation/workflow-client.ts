// How the admin API starts a run: the run's row is opened (running) first, so that the answer shows
// it, then its workflow `reconciliation:<rcn id>` is started. A start Temporal refuses or does not
// answer marks the run failed, and the answer is a 503 (the request sends nothing more after it, so
// the run stays failed): the operator asks again. And how it starts the
// devolução from suspense of an item resolved `refund`: once per item, however often it is asked.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import { unavailable } from '../domain/refusal.js';
import type { Deps } from '../runtime/deps.js';
import { ensureStarted } from '../temporal/accept-with-start.js';
import { withinAcceptWait } from '../temporal/within-accept-wait.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { RECONCILIATION_WORKFLOW, reconciliationWorkflowId, type ReconciliationInput } from './contract.js';
import { SUSPENSE_REFUND_WORKFLOW, suspenseRefundWorkflowId, type SuspenseRefundInput } from './suspense-refund.contract.js';
import { newRunId } from './ids.js';
import type { RunRow } from './repository.js';
import { failRun, openRun } from './runs.js';

export async function startReconciliation(deps: Deps, window: { route: string; from: Date; to: Date }): Promise<RunRow> {
  const run = await openRun(deps.sql, { id: newRunId(), ...window });
  const workflowId = reconciliationWorkflowId(run.id);
  const input: ReconciliationInput = { route: run.route, run: { id: run.id, from: run.from.toISOString(), to: run.to.toISOString() } };
  try {
    const started = await withinAcceptWait(deps, () =>
      deps.temporal.workflow.start(RECONCILIATION_WORKFLOW, {
        workflowId,
        taskQueue: deps.config.temporalTaskQueue,
        workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
        args: [input],
      }),
    );
    if (started === TIMED_OUT) await ensureStarted(deps, workflowId, false);
  } catch (err) {
    deps.log.warn({ err, runId: run.id }, 'reconciliation run not started');
    await failRun(deps.sql, run.id, 'the run could not be started');
    throw unavailable('Processamento temporariamente indisponível; tente novamente');
  }
  return run;
}

/** Starts the item's devolução from suspense unless it runs or ran; a failure is logged (asking again retries it). */
export async function startSuspenseRefund(deps: Deps, itemId: string): Promise<void> {
  const input: SuspenseRefundInput = { itemId };
  const start = deps.temporal.workflow.start(SUSPENSE_REFUND_WORKFLOW, {
    workflowId: suspenseRefundWorkflowId(itemId),
    taskQueue: deps.config.temporalTaskQueue,
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    args: [input],
  });
  try {
    await within(start, deps.config.acceptWaitMs);
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    deps.log.warn({ err, itemId }, 'devolução from suspense not started; resolving the item again starts it');
  }
}
