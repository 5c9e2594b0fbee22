// One workflow per reconciliation run (src/reconciliation/contract.ts). It orchestrates; the
// activities read the PSP's records a page at a time and compare them with the engine, so that no
// record travels through the workflow's history: open the run, the received Pix (with their
// devoluções), the envios, the engine operations the PSP does not list (missing_at_psp), complete.
// A step that keeps failing fails the run, recorded as `failed`.
import { ActivityFailure, proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import type { ReconciliationActivities } from './activities.js';
import { HEARTBEAT_TIMEOUT } from '../../contracts/heartbeat.contract.js';
import { RECONCILIATION_RETRY as retry, type ReconciliationWorkflow } from './contract.js';

const steps = proxyActivities<ReconciliationActivities>({ startToCloseTimeout: '1 minute', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry });
/** A pass over a day of records: a million Pix take minutes; the heartbeat tells a dead worker at once. */
const passes = proxyActivities<ReconciliationActivities>({ startToCloseTimeout: '1 hour', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry });

/** Set by Temporal on a run a schedule started: when it was due (a late start still reconciles the day before that). */
const SCHEDULED_START = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

export const reconciliationWorkflow: ReconciliationWorkflow = async ({ route, run }) => {
  const runId = run?.id ?? `rcn_${uuid4().replace(/-/g, '').slice(0, 24)}`;
  const due = workflowInfo().typedSearchAttributes.get(SCHEDULED_START) ?? workflowInfo().startTime;
  const window = run ?? (await steps.reconciliationWindowBefore(due.toISOString()));
  await steps.openReconciliationRun({ id: runId, route, from: window.from, to: window.to });
  try {
    await passes.reconcileReceived(runId);
    await passes.reconcileSent(runId);
    await passes.reconcileMissing(runId);
    return await steps.completeReconciliationRun(runId);
  } catch (err) {
    const cause = err instanceof ActivityFailure ? (err.cause ?? err) : err;
    await steps.failReconciliationRun(runId, cause instanceof Error ? cause.message : String(cause));
    throw err;
  }
};
