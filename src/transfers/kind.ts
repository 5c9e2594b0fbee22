// The transfer: what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { transferActivities } from './activities.js';
import { transfers as transferCommands } from './cli.js';
import { createTransferRoute } from './routes.js';
import { SIMULATOR_TRANSFER_ROUTES } from './simulator-routes.js';

export const transfers = {
  name: 'transfer',
  routes: [createTransferRoute],
  adminRoutes: SIMULATOR_TRANSFER_ROUTES,
  commands: [transferCommands],
  activities: transferActivities,
  gauges: [],
};
