// Reconciliation activities: thin wrappers over src/reconciliation. The passes stream the route's
// records and heartbeat how many they read; the devolução from suspense of an item resolved `refund`
// is asked, followed and settled.
import { Context } from '@temporalio/activity';
import type { Deps } from '../runtime/deps.js';
import { routeRecords } from '../pix-routes/registry.js';
import { reconcileMissing } from './missing.js';
import { reconcileReceived, reconcileSent, type PassDeps } from './pass.js';
import { completeRun, failRun, openRun } from './runs.js';
import { refundRoutes, sendSuspenseRefund, settleSuspenseRefund, suspenseRefundStateAtRoute } from './resolve-refund.js';
import type { RunRow } from './repository.js';
import type { Outcome } from './match.js';
import { previousLocalDay } from './window.js';
import type { ReconciliationOutcome, ReconciliationWindow } from './contract.js';

const outcome = (run: RunRow): ReconciliationOutcome => ({ runId: run.id, status: run.status === 'completed' ? 'completed' : 'failed' });

export function reconciliationActivities(deps: Deps) {
  const passDeps: PassDeps = {
    deps,
    records: (route) => routeRecords(deps, route),
    progress: (read) => Context.current().heartbeat({ read }),
  };
  const suspenseDeps = { sql: deps.sql, refundRoute: refundRoutes(deps) };
  return {
    async reconciliationWindowBefore(at: string): Promise<ReconciliationWindow> {
      const { from, to } = previousLocalDay(new Date(at));
      return { from: from.toISOString(), to: to.toISOString() };
    },
    async openReconciliationRun(run: { id: string; route: string; from: string; to: string }): Promise<void> {
      await openRun(deps.sql, { id: run.id, route: run.route, from: new Date(run.from), to: new Date(run.to) });
    },
    reconcileReceived: (runId: string) => reconcileReceived(passDeps, runId),
    reconcileSent: (runId: string) => reconcileSent(passDeps, runId),
    reconcileMissing: (runId: string) => reconcileMissing(deps, runId),
    completeReconciliationRun: async (runId: string) => outcome(await completeRun(deps.sql, runId)),
    failReconciliationRun: async (runId: string, failure: string) => outcome(await failRun(deps.sql, runId, failure)),
    sendSuspenseRefund: (itemId: string) => sendSuspenseRefund(suspenseDeps, itemId),
    suspenseRefundStateAtRoute: (itemId: string) => suspenseRefundStateAtRoute(suspenseDeps, itemId),
    settleSuspenseRefund: (itemId: string, ended: Outcome, reason: string | null) => settleSuspenseRefund(deps, itemId, ended, reason),
  };
}

export type ReconciliationActivities = ReturnType<typeof reconciliationActivities>;
