// GET /v1/transactions and GET /v1/transactions/{id}: the account's charges and transfers from the
// PostgreSQL read model, never another account's.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { refreshCharge } from '../../charges/refresh.js';
import { ApiError, invalidRequest, notFound } from '../../http/errors.js';
import { ok } from '../../http/edge.js';
import { findTransaction, listTransactions } from '../../transactions/repository.js';
import { TRANSACTION_STATUSES, type TransactionStatus } from '../../transactions/row.js';
import { TransactionSchema } from '../../transactions/schema.js';
import { serializeTransaction } from '../../transactions/serialize.js';
import { PageQuerySchema, pagination, parsePage, queryValue } from '../pagination.js';
import type { RouteSpec } from '../routes.js';

const LISTED_TYPES = ['payment', 'withdrawal'] as const;
type ListedType = (typeof LISTED_TYPES)[number];

function parseStatus(raw: string | undefined): TransactionStatus | undefined {
  if (raw === undefined) return undefined;
  if (!(TRANSACTION_STATUSES as readonly string[]).includes(raw)) {
    throw new ApiError(400, 'invalid_status', `status deve ser um de: ${TRANSACTION_STATUSES.join(', ')}`);
  }
  return raw as TransactionStatus;
}

function parseType(raw: string | undefined): ListedType | undefined {
  if (raw === undefined) return undefined;
  if (!(LISTED_TYPES as readonly string[]).includes(raw)) throw new ApiError(400, 'invalid_type', `type deve ser um de: ${LISTED_TYPES.join(', ')}`);
  return raw as ListedType;
}

export const listTransactionsRoute: RouteSpec = {
  method: 'GET',
  path: '/transactions',
  permission: 'transactions:read',
  financial: true,
  summary: 'Lista as transações da conta, das mais recentes para as mais antigas',
  operationId: 'listTransactions',
  request: {
    query: Type.Object({
      ...PageQuerySchema,
      status: Type.Optional(Type.Enum([...TRANSACTION_STATUSES], { description: 'Filtra pelo status' })),
      type: Type.Optional(Type.Enum([...LISTED_TYPES], { description: 'payment (cobranças) ou withdrawal (transferências)' })),
    }),
  },
  response: Type.Array(TransactionSchema),
  successStatuses: [200],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 400, code: 'invalid_status' },
    { status: 400, code: 'invalid_type' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const page = parsePage(ctx.query);
    const status = parseStatus(queryValue(ctx.query, 'status'));
    const type = parseType(queryValue(ctx.query, 'type'));
    const { rows, total } = await listTransactions(deps.sql, caller.account.id, { ...page, status, type });
    ok(ctx, rows.map(serializeTransaction), 200, { pagination: pagination(page, total) });
  },
};

function parseRefresh(raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw invalidRequest('refresh deve ser true ou false');
}

export const getTransactionRoute: RouteSpec = {
  method: 'GET',
  path: '/transactions/:id',
  permission: 'transactions:read',
  financial: true,
  summary: 'Busca uma transação pelo identificador ou pelo externalId',
  operationId: 'getTransaction',
  request: {
    params: Type.Object({ id: Type.String({ description: 'Identificador da transação (txn_…, out_…) ou o externalId' }) }),
    query: Type.Object({
      refresh: Type.Optional(Type.Boolean({ description: 'true: consulta o estado mais recente na rota enquanto a cobrança está pendente' })),
    }),
  },
  response: TransactionSchema,
  successStatuses: [200],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 404, code: 'not_found' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const refresh = parseRefresh(queryValue(ctx.query, 'refresh'));
    const row = await findTransaction(deps.sql, caller.account.id, ctx.params.id!);
    if (!row) throw notFound('Transação não encontrada');
    ok(ctx, serializeTransaction(refresh ? await refreshCharge(deps, row) : row));
  },
};
