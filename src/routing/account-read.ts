// The reads of an account's own records (GET /transactions, /transactions/{id}, /meds, /meds/{id}):
// what they declare alike (GET, the `transactions:read` permission, a financial route, answered 200),
// and the list routes' query, errors and answer.
import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type { Caller } from '../accounts/account.js';
import type { Sql } from '../db/database.js';
import { okPage, PageQuerySchema, type Page } from './pagination.js';
import type { RouteSpec } from './public-route.js';
import { ERROR_CODE_KEYWORD, validQuery } from './validate-request.js';

export function accountReadRoute(route: Omit<RouteSpec, 'method' | 'permission' | 'financial' | 'successStatuses'>): RouteSpec {
  return { method: 'GET', permission: 'transactions:read', financial: true, successStatuses: [200], ...route };
}

interface AccountList<Filters extends TProperties, Row> extends Pick<RouteSpec, 'path' | 'summary' | 'operationId'> {
  /** Query fields beside `page` and `limit`; each names the code of its refusal (ERROR_CODE_KEYWORD). */
  filters: Filters;
  item: TSchema;
  list(sql: Sql, accountId: string, query: Page & Static<TObject<Filters>>): Promise<{ rows: Row[]; total: number }>;
  show(row: Row): unknown;
}

/** A page of the account's records, newest first, filtered by the query's fields. */
export function accountListRoute<Filters extends TProperties, Row>({
  filters,
  item,
  list,
  show,
  ...route
}: AccountList<Filters, Row>): RouteSpec {
  const query = Type.Object({ ...PageQuerySchema, ...filters });
  const filterErrors = Object.values(filters)
    .map((filter) => (filter as { [ERROR_CODE_KEYWORD]?: string })[ERROR_CODE_KEYWORD])
    .filter((code) => code !== undefined)
    .map((code) => ({ status: 400, code }));
  return accountReadRoute({
    ...route,
    request: { query },
    response: Type.Array(item),
    errors: [{ status: 400, code: 'invalid_request' }, ...filterErrors],
    async handler(ctx, deps) {
      const caller = ctx.state.caller as Caller;
      const { page, limit, ...chosen } = validQuery(ctx, query) as Page & Static<TObject<Filters>>; // defaults filled in
      const asked = { page, limit };
      okPage(ctx, asked, await list(deps.sql, caller.account.id, { ...asked, ...(chosen as Static<TObject<Filters>>) }), show);
    },
  });
}
