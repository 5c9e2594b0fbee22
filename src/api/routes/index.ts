import type { RouteSpec } from '../../routing/public-route.js';
import { KINDS } from '../../kinds/index.js';
import { balanceRoute } from './balance.js';
import { getTransactionRoute, listTransactionsRoute } from './transactions.js';
import { transparencyRoutes } from './transparency.js';
import { selfDescriptionRoutes } from './self.js';
import { statementRoute } from './statement.js';

/** The routes of one path together, where its first one stands: the order of the OpenAPI document's paths, which the summary of GET /v1 keeps. */
function byPath(routes: RouteSpec[]): RouteSpec[] {
  const paths = [...new Set(routes.map((route) => route.path))];
  return paths.flatMap((path) => routes.filter((route) => route.path === path));
}

/** Every public route under /v1: the account's (the statement, books.md's, beside the balance), the transactions', each kind's, then the descriptions. */
export const ROUTES: RouteSpec[] = byPath([
  balanceRoute,
  statementRoute,
  listTransactionsRoute,
  getTransactionRoute,
  ...KINDS.flatMap((kind) => kind.routes),
  ...transparencyRoutes,
  ...selfDescriptionRoutes(() => ROUTES),
]);
