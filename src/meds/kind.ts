// The MED (and the devoluções it returns): what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { medActivities } from './activities.js';
import { MED_ROUTES } from './admin-routes.js';
import { meds as medCommands } from './cli.js';
import { medGauges } from './metrics.js';
import { getMedRoute, listMedsRoute } from './routes.js';

export const meds = {
  name: 'MED',
  routes: [listMedsRoute, getMedRoute],
  adminRoutes: MED_ROUTES,
  commands: [medCommands],
  activities: medActivities,
  gauges: [medGauges],
};
