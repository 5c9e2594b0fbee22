// The charge (due-date charges included): what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { chargeActivities } from './activities.js';
import { charges as chargeCommands } from './cli.js';
import { dueDateGauges } from './due-date/metrics.js';
import { createChargeRoute } from './routes.js';
import { SIMULATOR_CHARGE_ROUTES } from './simulator-routes.js';

export const charges = {
  name: 'charge',
  routes: [createChargeRoute],
  adminRoutes: SIMULATOR_CHARGE_ROUTES,
  commands: [chargeCommands],
  activities: chargeActivities,
  gauges: [dueDateGauges],
};
