// MED activities: each is one PostgreSQL transaction in src/meds (a route's devoluções: one per
// devolução), idempotent under Temporal retries.
import type { Deps } from '../runtime/deps.js';
import { decideMed } from './decide.js';
import { openMed } from './open.js';
import { markMedOverdue } from './overdue.js';
import { chargeOfEndToEndId, recordRouteMedReturn } from './route-returns.js';
import { chargeRoute } from '../pix-routes/registry.js';
import { dispatchEvent } from '../webhooks/dispatch.js';
import type { MedReturnsInput } from './returns.contract.js';
import type { MedOutcome, OpenMedInput } from './contract.js';

export function medActivities(deps: Deps) {
  return {
    openMed: (input: OpenMedInput) => openMed(deps.sql, input),
    decideMed: (medId: string, outcome: MedOutcome) => decideMed(deps.sql, medId, outcome),
    /** Flags the MED and alerts operators (a warn log line and `med.updated`); returns the event to dispatch, if any. */
    async markMedOverdue(medId: string): Promise<string[]> {
      const overdue = await markMedOverdue(deps.sql, medId);
      if (!overdue) return [];
      const { med } = overdue;
      deps.log.warn(
        {
          alert: 'med_decision_overdue',
          medId,
          accountId: med.accountId,
          transactionId: med.transactionId,
          deadlineAt: med.deadlineAt.toISOString(),
        },
        'MED decision deadline passed without a decision: an operator must decide it',
      );
      return [overdue.eventId];
    },
    /** Asks the route for the MED devoluções of a received Pix; records each once as an accepted MED and dispatches its events. */
    async recordMedReturnsAtRoute(input: MedReturnsInput): Promise<number> {
      const transactionId = await chargeOfEndToEndId(deps.sql, input.route, input.endToEndId);
      if (!transactionId) return 0;
      const route = chargeRoute(deps, input.route);
      const returns = route.medReturns ? await route.medReturns(input.endToEndId) : [];
      for (const devolucao of returns) {
        for (const eventId of await recordRouteMedReturn(deps, transactionId, devolucao)) await dispatchEvent(deps, eventId);
      }
      return returns.length;
    },
  };
}

export type MedActivities = ReturnType<typeof medActivities>;
