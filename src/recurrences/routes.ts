// /v1/recurrences (Pix Automático): create a recurrence (201, or 200 repeating its key), list and
// fetch the account's recurrences, cancel one (the merchant's cancellation, through its workflow),
// and create a variable-amount recurrence's cycle charge (a charge, answered as POST /transactions is).
import Type from 'typebox';
import type { Caller } from '../accounts/account.js';
import { ok } from '../http/edge.js';
import { ApiError, notFound } from '../http/errors.js';
import { invalidRequest, operationRefused } from '../domain/refusal.js';
import { reaisToCents } from '../domain/money.js';
import { daysBetween, saoPauloDate } from '../../contracts/calendar.js';
import { IdempotencyKeyHeaderSchema, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { TransactionSchema } from '../transactions/schema.js';
import { serializeTransaction } from '../transactions/serialize.js';
import { ERROR_CODE_KEYWORD } from '../routing/validate-request.js';
import type { RouteSpec } from '../routing/public-route.js';
import { createRecurrence } from './create.js';
import { findRecurrence, listRecurrences } from './repository.js';
import { CycleChargeBodySchema, RecurrenceBodySchema, RecurrenceSchema } from './schema.js';
import { serializeRecurrence } from './serialize.js';
import { changeRecurrence } from './workflow-client.js';
import { createCycleChargeFor } from './cycle-charges.js';
import { MIN_LEAD_DAYS, RECURRENCE_STATUSES } from './contract.js';
import type { Static } from 'typebox';
import { accountListRoute, accountReadRoute } from '../routing/account-read.js';

const RecurrenceParams = Type.Object({ id: Type.String({ description: 'Identificador da recorrência (rec_…) ou o externalId' }) });
const INVALID_STATUS = { status: 409, code: 'invalid_recurrence_status' };
const CREATION_ERRORS = [
  { status: 400, code: 'invalid_request' },
  { status: 400, code: 'idempotency_key_required' },
  { status: 400, code: 'invalid_idempotency_key' },
  { status: 409, code: 'idempotency_conflict' },
  { status: 422, code: 'operation_refused' },
];

async function ownRecurrence(deps: Parameters<RouteSpec['handler']>[1], caller: Caller, id: string) {
  const row = await findRecurrence(deps.sql, caller.account.id, id);
  if (!row) throw notFound('Recorrência não encontrada');
  return row;
}

export const createRecurrenceRoute: RouteSpec = {
  method: 'POST',
  path: '/recurrences',
  permission: 'payments:write',
  financial: true,
  summary: 'Cria uma recorrência do Pix Automático: o pagador a autoriza uma vez (QR code) e cada ciclo é debitado no vencimento',
  operationId: 'createRecurrence',
  request: { body: RecurrenceBodySchema, headers: IdempotencyKeyHeaderSchema },
  response: RecurrenceSchema,
  successStatuses: [201, 200],
  idempotent: 'always',
  errors: CREATION_ERRORS,
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const created = await createRecurrence(
      deps,
      caller,
      ctx.request.body,
      ctx.get('idempotency-key') || undefined,
      ctx.state.requestId as string,
    );
    ok(ctx, serializeRecurrence(created.recurrence), created.outcome === 'created' ? 201 : 200, {
      idempotent: created.outcome === 'repeated',
    });
  },
};

export const listRecurrencesRoute = accountListRoute({
  path: '/recurrences',
  summary: 'Lista as recorrências do Pix Automático da conta, das mais recentes para as mais antigas',
  operationId: 'listRecurrences',
  filters: {
    status: Type.Optional(
      Type.Enum([...RECURRENCE_STATUSES], { description: 'Filtra pelo status', [ERROR_CODE_KEYWORD]: 'invalid_status' }),
    ),
  },
  item: RecurrenceSchema,
  list: listRecurrences,
  show: (row) => serializeRecurrence(row),
});

export const getRecurrenceRoute = accountReadRoute({
  path: '/recurrences/:id',
  summary: 'Busca uma recorrência pelo identificador ou pelo externalId',
  operationId: 'getRecurrence',
  request: { params: RecurrenceParams },
  response: RecurrenceSchema,
  errors: [{ status: 404, code: 'not_found' }],
  async handler(ctx, deps) {
    ok(ctx, serializeRecurrence(await ownRecurrence(deps, ctx.state.caller as Caller, ctx.params.id!)));
  },
});

export const cancelRecurrenceRoute: RouteSpec = {
  method: 'DELETE',
  path: '/recurrences/:id',
  permission: 'payments:write',
  financial: true,
  summary: 'Cancela a recorrência (cancelledBy merchant); os ciclos ainda não vencidos são cancelados',
  operationId: 'cancelRecurrence',
  request: { params: RecurrenceParams },
  response: RecurrenceSchema,
  successStatuses: [200, 202],
  errors: [{ status: 404, code: 'not_found' }, INVALID_STATUS],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const row = await ownRecurrence(deps, caller, ctx.params.id!);
    if (row.status !== 'active' && row.status !== 'pending_authorization') {
      throw new ApiError(409, 'invalid_recurrence_status', `Uma recorrência com status ${row.status} não pode ser cancelada`);
    }
    const status = await changeRecurrence(deps, row, { change: 'cancel', by: 'merchant' });
    const after = (await findRecurrence(deps.sql, caller.account.id, row.id))!;
    ok(ctx, serializeRecurrence(after), status === 'cancelled' ? 200 : 202);
  },
};

const OUTCOME_STATUS = { created: 201, repeated: 200, accepting: 202 } as const;

export const createCycleChargeRoute: RouteSpec = {
  method: 'POST',
  path: '/recurrences/:id/charges',
  permission: 'payments:write',
  financial: true,
  summary: 'Cria a cobrança de um ciclo de uma recorrência de valor variável, debitada pelo banco do pagador no vencimento',
  operationId: 'createRecurrenceCharge',
  request: { params: RecurrenceParams, body: CycleChargeBodySchema, headers: IdempotencyKeyHeaderSchema },
  response: TransactionSchema,
  successStatuses: [201, 200, 202],
  idempotent: 'always',
  errors: [...CREATION_ERRORS.slice(0, 4), { status: 404, code: 'not_found' }, ...CREATION_ERRORS.slice(4)],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const body = ctx.request.body as Static<typeof CycleChargeBodySchema>;
    const key = resolveIdempotencyKey(ctx.get('idempotency-key') || undefined, undefined);
    const recurrence = await ownRecurrence(deps, caller, ctx.params.id!);
    if (recurrence.minimumAmountCents === null) throw operationRefused('Numa recorrência de valor fixo o motor cria cada ciclo');
    if (recurrence.status !== 'active') throw operationRefused(`Uma recorrência com status ${recurrence.status} não recebe cobranças`);
    const amountCents = reaisToCents(body.amount)!;
    if (amountCents < recurrence.minimumAmountCents) throw operationRefused('amount abaixo do minimumAmount da recorrência');
    if (recurrence.payerMaximumAmountCents !== null && amountCents > recurrence.payerMaximumAmountCents) {
      throw operationRefused('amount acima do payerMaximumAmount que o pagador autorizou');
    }
    if (daysBetween(saoPauloDate(new Date()), body.dueDate) < MIN_LEAD_DAYS) {
      throw invalidRequest(
        `dueDate deve ser ao menos ${MIN_LEAD_DAYS} dias depois de hoje: a cobrança chega ao banco do pagador antes`,
        '/dueDate',
      );
    }
    if (body.dueDate < recurrence.firstDueDate || (recurrence.endDate !== null && body.dueDate > recurrence.endDate)) {
      throw invalidRequest('dueDate deve estar entre firstDueDate e endDate da recorrência', '/dueDate');
    }
    const cycle = { dueDate: body.dueDate, amountCents, ...(body.description === undefined ? {} : { description: body.description }) };
    const answer = await createCycleChargeFor(deps, caller, recurrence, cycle, key, ctx.state.requestId as string);
    ok(ctx, serializeTransaction(answer.transaction), OUTCOME_STATUS[answer.outcome], { idempotent: answer.outcome === 'repeated' });
  },
};

export const recurrenceRoutes: RouteSpec[] = [
  createRecurrenceRoute,
  listRecurrencesRoute,
  getRecurrenceRoute,
  cancelRecurrenceRoute,
  createCycleChargeRoute,
];
