// The refund (devolução of a charge asked by an operator): what the edges, the worker and /metrics take of it, as src/kinds/index.ts lists it.
// Typed there (OperationKind, src/kinds/kind.ts): a kind's folder imports nothing of src/kinds, which imports it.
// Its workflow code is listed in workflows/index.ts.
import { refundActivities } from './activities.js';
import { REFUND_ROUTES } from './admin-routes.js';
import { refunds as refundCommands } from './cli.js';
import { SIMULATOR_REFUND_ROUTES } from './simulator-routes.js';

export const refunds = {
  name: 'refund',
  routes: [],
  adminRoutes: [...REFUND_ROUTES, ...SIMULATOR_REFUND_ROUTES],
  commands: [refundCommands],
  activities: refundActivities,
  gauges: [],
};
