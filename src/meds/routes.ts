// GET /v1/meds and GET /v1/meds/{id}: the account's disputes (MED), read-only.
import Type from 'typebox';
import type { Caller } from '../accounts/account.js';
import { ok } from '../http/edge.js';
import { notFound } from '../http/errors.js';
import { findMed, listMeds } from './repository.js';
import { MED_STATUSES } from './row.js';
import { MedSchema } from './schema.js';
import { serializeMed } from './serialize.js';
import { accountListRoute, accountReadRoute } from '../routing/account-read.js';
import { ERROR_CODE_KEYWORD } from '../routing/validate-request.js';

export const listMedsRoute = accountListRoute({
  path: '/meds',
  summary: 'Lista as MEDs (contestações) da conta, das mais recentes para as mais antigas',
  operationId: 'listMeds',
  filters: {
    status: Type.Optional(
      Type.Enum([...MED_STATUSES], { description: 'Filtra pelo status da MED', [ERROR_CODE_KEYWORD]: 'invalid_med_status' }),
    ),
  },
  item: MedSchema,
  list: listMeds,
  show: serializeMed,
});

export const getMedRoute = accountReadRoute({
  path: '/meds/:id',
  summary: 'Busca uma MED pelo seu id, pelo id da transação contestada ou pelo externalId do pedido',
  operationId: 'getMed',
  request: {
    params: Type.Object({ id: Type.String({ description: 'med_…, o id da transação (txn_…) ou o externalId do pedido' }) }),
  },
  response: MedSchema,
  errors: [{ status: 404, code: 'not_found' }],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const med = await findMed(deps.sql, caller.account.id, ctx.params.id!);
    if (!med) throw notFound('MED não encontrada');
    ok(ctx, serializeMed(med));
  },
});
