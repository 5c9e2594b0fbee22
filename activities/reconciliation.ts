// Reconciliation activities: thin wrappers over src/reconciliation. The passes stream the route's
// records and heartbeat how many they read.
import { Context } from '@temporalio/activity';
import type { Deps } from '../src/runtime/deps.js';
import { routeRecords } from '../src/pix-routes/registry.js';
import { reconcileMissing } from '../src/reconciliation/missing.js';
import { reconcileReceived, reconcileSent, type PassDeps } from '../src/reconciliation/pass.js';
import { completeRun, failRun, openRun } from '../src/reconciliation/runs.js';
import type { RunRow } from '../src/reconciliation/repository.js';
import { previousLocalDay } from '../src/reconciliation/window.js';
import type { ReconciliationOutcome, ReconciliationWindow } from '../contracts/reconciliation.contract.js';

const outcome = (run: RunRow): ReconciliationOutcome => ({ runId: run.id, status: run.status === 'completed' ? 'completed' : 'failed' });

export function reconciliationActivities(deps: Deps) {
  const passDeps: PassDeps = {
    deps,
    records: (route) => routeRecords(deps, route),
    progress: (read) => Context.current().heartbeat({ read }),
  };
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
  };
}

export type ReconciliationActivities = ReturnType<typeof reconciliationActivities>;
