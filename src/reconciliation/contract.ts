// The reconciliation run's contract (books.md, "Reconciliation against the PSP"): what the admin API
// and the route's Temporal Schedule start it with, and what it answers. One workflow per run: id
// `reconciliation:<rcn id>` when the admin API starts it; a schedule's (`reconcile:<route>`) runs carry
// the schedule's id and the time they were due, and reconcile the day before, in America/Sao_Paulo.
// The PSP's records never travel through the workflow: its activities read and compare them.
import { ROUTE_REFUSED } from '../../contracts/transaction.contract.js';

export interface ReconciliationInput {
  route: string;
  /** The run the admin API opened, with its window (ISO instants); absent in a scheduled run, which opens its own. */
  run?: { id: string; from: string; to: string };
}

/** A run's window, as it travels (ISO instants, [from, to)). */
export interface ReconciliationWindow {
  from: string;
  to: string;
}

export interface ReconciliationOutcome {
  runId: string;
  status: 'completed' | 'failed';
}

export type ReconciliationWorkflow = (input: ReconciliationInput) => Promise<ReconciliationOutcome>;
export const RECONCILIATION_WORKFLOW = 'reconciliationWorkflow';

export const reconciliationWorkflowId = (runId: string): string => `reconciliation:${runId}`;
export const reconcileScheduleId = (route: string): string => `reconcile:${route}`;

/**
 * A step is retried a few times, backing off to a minute, then the run fails (and the next one is due
 * the next day); a route that cannot list its records fails it at once.
 */
export const RECONCILIATION_RETRY = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 10,
  nonRetryableErrorTypes: [ROUTE_REFUSED],
};
