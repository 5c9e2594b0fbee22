// GET /v1/meds and GET /v1/meds/{id}: the account's disputes (MED), read-only.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { ok } from '../../http/edge.js';
import { notFound } from '../../http/errors.js';
import { findMed, listMeds } from '../../meds/repository.js';
import { MED_STATUSES } from '../../meds/row.js';
import { MedSchema } from '../../meds/schema.js';
import { serializeMed } from '../../meds/serialize.js';
import { PageQuerySchema, pagination } from '../pagination.js';
import type { RouteSpec } from '../routes.js';
import { ERROR_CODE_KEYWORD, validQuery } from '../validate-request.js';

const ListMedsQuery = Type.Object({
  ...PageQuerySchema,
  status: Type.Optional(Type.Enum([...MED_STATUSES], { description: 'Filtra pelo status da MED', [ERROR_CODE_KEYWORD]: 'invalid_med_status' })),
});

export const listMedsRoute: RouteSpec = {
  method: 'GET',
  path: '/meds',
  permission: 'transactions:read',
  financial: true,
  summary: 'Lista as MEDs (contestações) da conta, das mais recentes para as mais antigas',
  operationId: 'listMeds',
  request: { query: ListMedsQuery },
  response: Type.Array(MedSchema),
  successStatuses: [200],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 400, code: 'invalid_med_status' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const { status, ...query } = validQuery(ctx, ListMedsQuery);
    const page = { page: query.page!, limit: query.limit! }; // defaults filled in
    const { rows, total } = await listMeds(deps.sql, caller.account.id, { ...page, status });
    ok(ctx, rows.map(serializeMed), 200, { pagination: pagination(page, total) });
  },
};

export const getMedRoute: RouteSpec = {
  method: 'GET',
  path: '/meds/:id',
  permission: 'transactions:read',
  financial: true,
  summary: 'Busca uma MED pelo seu id, pelo id da transação contestada ou pelo externalId do pedido',
  operationId: 'getMed',
  request: {
    params: Type.Object({ id: Type.String({ description: 'med_…, o id da transação (txn_…) ou o externalId do pedido' }) }),
  },
  response: MedSchema,
  successStatuses: [200],
  errors: [{ status: 404, code: 'not_found' }],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const med = await findMed(deps.sql, caller.account.id, ctx.params.id!);
    if (!med) throw notFound('MED não encontrada');
    ok(ctx, serializeMed(med));
  },
};
