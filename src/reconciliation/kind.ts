// The reconciliation run (and the devoluções from suspense it resolves): what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { reconciliationActivities } from './activities.js';
import { RECONCILIATION_ROUTES } from './admin-routes.js';
import { reconciliations } from './cli.js';
import { reconciliationGauges } from './metrics.js';

export const reconciliation = {
  name: 'reconciliation',
  routes: [],
  adminRoutes: RECONCILIATION_ROUTES,
  commands: [reconciliations],
  activities: reconciliationActivities,
  gauges: [reconciliationGauges],
};
