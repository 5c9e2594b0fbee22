// GET /v1/statement: the account's own statement (books.md, "Statements"), a page of its entries at a
// time, with the window's opening and closing balances on every page.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { centsToReais } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { statementPage } from '../../ledger/statement.js';
import {
  MAX_PUBLIC_WINDOW_DAYS,
  statementEntryJson,
  statementSchema,
  statementWindow,
  statementWindowQuery,
} from '../../ledger/statement-schema.js';
import { pagination, PageQuerySchema } from '../../routing/pagination.js';
import type { RouteSpec } from '../../routing/public-route.js';
import { validQuery } from '../../routing/validate-request.js';

const StatementQuery = Type.Object({ ...statementWindowQuery(MAX_PUBLIC_WINDOW_DAYS), ...PageQuerySchema });

export const statementRoute: RouteSpec = {
  method: 'GET',
  path: '/statement',
  permission: 'balance:read',
  financial: true,
  summary: `Extrato do saldo disponível num período [from, to) de até ${MAX_PUBLIC_WINDOW_DAYS} dias: saldo inicial, lançamentos com o saldo após cada um, saldo final; lançamentos em páginas`,
  operationId: 'getStatement',
  request: { query: StatementQuery },
  response: statementSchema(),
  successStatuses: [200],
  errors: [{ status: 400, code: 'invalid_request' }],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const { page, limit, ...window } = validQuery(ctx, StatementQuery) as { page: number; limit: number; from: string; to: string }; // defaults filled in
    const statement = await statementPage(deps.sql, caller.account.id, statementWindow(window, MAX_PUBLIC_WINDOW_DAYS), { page, limit });
    ok(
      ctx,
      {
        openingBalance: centsToReais(statement.openingCents),
        closingBalance: centsToReais(statement.closingCents),
        entries: statement.entries.map(statementEntryJson),
      },
      200,
      { pagination: pagination({ page, limit }, statement.total) },
    );
  },
};
