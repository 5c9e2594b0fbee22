// The daily run of each route (books.md): a Temporal Schedule `reconcile:<route>` that starts the
// reconciliation workflow at RECONCILE_AT in America/Sao_Paulo; the run reconciles the day before
// the time it was due. Created, or brought up to date, by every worker at its start (last writer
// wins, and every worker writes the same), for `simulator` and every route of the routes file. A
// schedule missed while Temporal was down is still started within a day.
import { ScheduleAlreadyRunning, type ScheduleOptionsStartWorkflowAction, type ScheduleSpec } from '@temporalio/client';
import type { TimeOfDay } from '../config/config.js';
import { routeNames } from '../pix-routes/registry.js';
import type { Deps } from '../runtime/deps.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { RECONCILIATION_WORKFLOW, reconcileScheduleId, type ReconciliationInput, type ReconciliationWorkflow } from './contract.js';
import { SAO_PAULO } from '../../contracts/calendar.js';

function scheduleOf(deps: Deps, route: string, at: TimeOfDay) {
  const spec: ScheduleSpec = { calendars: [{ hour: at.hour, minute: at.minute }], timezone: SAO_PAULO };
  const input: ReconciliationInput = { route };
  const action: ScheduleOptionsStartWorkflowAction<ReconciliationWorkflow> = {
    type: 'startWorkflow',
    workflowType: RECONCILIATION_WORKFLOW,
    // Temporal appends each run's due time to it.
    workflowId: reconcileScheduleId(route),
    taskQueue: deps.config.temporalTaskQueue,
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    args: [input],
  };
  return { spec, action, policies: { overlap: 'SKIP' as const, catchupWindow: '1 day' } };
}

/** Creates or updates the schedule of every route; answers their ids. Nothing when RECONCILE_AT is off. */
export async function ensureReconcileSchedules(deps: Deps): Promise<string[]> {
  const at = deps.config.reconcileAt;
  if (at === null) return [];
  const ids: string[] = [];
  for (const route of routeNames(deps.config)) {
    const scheduleId = reconcileScheduleId(route);
    const wanted = scheduleOf(deps, route, at);
    try {
      await deps.temporal.schedule.create({ scheduleId, ...wanted });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await deps.temporal.schedule.getHandle(scheduleId).update((current) => ({ ...current, ...wanted }));
    }
    ids.push(scheduleId);
  }
  return ids;
}
