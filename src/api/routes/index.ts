import type { RouteSpec } from '../../routing/public-route.js';
import { balanceRoute } from './balance.js';
import { createChargeRoute } from '../../charges/routes.js';
import { getMedRoute, listMedsRoute } from '../../meds/routes.js';
import { getTransactionRoute, listTransactionsRoute } from './transactions.js';
import { createTransferRoute } from '../../transfers/routes.js';
import { recurrenceRoutes } from '../../recurrences/routes.js';
import { transparencyRoutes } from './transparency.js';
import { selfDescriptionRoutes } from './self.js';
import { statementRoute } from './statement.js';

/** Every public route under /v1, in the order of the spec's endpoint summary (the statement, books.md's, beside the balance). */
export const ROUTES: RouteSpec[] = [
  balanceRoute,
  statementRoute,
  createChargeRoute,
  listTransactionsRoute,
  getTransactionRoute,
  createTransferRoute,
  listMedsRoute,
  getMedRoute,
  ...recurrenceRoutes,
  ...transparencyRoutes,
  ...selfDescriptionRoutes(() => ROUTES),
];
