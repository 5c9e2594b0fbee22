// The recurrence (Pix Automático): what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { recurrenceActivities } from './activities.js';
import { recurrences as recurrenceCommands } from './cli.js';
import { recurrenceGauge } from './metrics.js';
import { recurrenceRoutes } from './routes.js';
import { SIMULATOR_RECURRENCE_ROUTES } from './simulator-routes.js';

export const recurrences = {
  name: 'recurrence',
  routes: recurrenceRoutes,
  adminRoutes: SIMULATOR_RECURRENCE_ROUTES,
  commands: [recurrenceCommands],
  activities: recurrenceActivities,
  gauges: [recurrenceGauge],
};
