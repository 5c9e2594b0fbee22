// GET /v1/meds and GET /v1/meds/{id}: the account's disputes (MED), read-only.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { ok } from '../../http/edge.js';
import { ApiError, notFound } from '../../http/errors.js';
import { findMed, listMeds } from '../../meds/repository.js';
import { MED_STATUSES, type MedStatus } from '../../meds/row.js';
import { MedSchema } from '../../meds/schema.js';
import { serializeMed } from '../../meds/serialize.js';
import { PageQuerySchema, pagination, parsePage, queryValue } from '../pagination.js';
import type { RouteSpec } from '../routes.js';

function parseMedStatus(raw: string | undefined): MedStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(MED_STATUSES as readonly string[]).includes(raw)) {
    throw new ApiError(400, 'invalid_med_status', `status deve ser um de: ${MED_STATUSES.join(', ')}`);
  }
  return raw as MedStatus;
}

export const listMedsRoute: RouteSpec = {
  method: 'GET',
  path: '/meds',
  permission: 'transactions:read',
  financial: true,
  summary: 'Lista as MEDs (contestações) da conta, das mais recentes para as mais antigas',
  operationId: 'listMeds',
  request: {
    query: Type.Object({
      ...PageQuerySchema,
      status: Type.Optional(Type.Enum([...MED_STATUSES], { description: 'Filtra pelo status da MED' })),
    }),
  },
  response: Type.Array(MedSchema),
  successStatuses: [200],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 400, code: 'invalid_med_status' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const page = parsePage(ctx.query);
    const status = parseMedStatus(queryValue(ctx.query, 'status'));
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
