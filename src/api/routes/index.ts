import type { RouteSpec } from '../../routing/public-route.js';
import { KINDS } from '../../kinds/index.js';
import { balanceRoute } from './balance.js';
import { getTransactionRoute, listTransactionsRoute } from './transactions.js';
import { transparencyRoutes } from './transparency.js';
import { selfDescriptionRoutes } from './self.js';
import { statementRoute } from './statement.js';

/** Every public route under /v1: the account's (the statement, books.md's, beside the balance), the transactions', each kind's, then the descriptions. */
export const ROUTES: RouteSpec[] = [
  balanceRoute,
  statementRoute,
  listTransactionsRoute,
  getTransactionRoute,
  ...KINDS.flatMap((kind) => kind.routes),
  ...transparencyRoutes,
  ...selfDescriptionRoutes(() => ROUTES),
];
