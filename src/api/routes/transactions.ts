// GET /v1/transactions and GET /v1/transactions/{id}: the account's charges and transfers from the
// PostgreSQL read model, never another account's.
import Type from 'typebox';
import type { Caller } from '../../accounts/account.js';
import { refreshCharge } from '../../charges/refresh.js';
import { notFound } from '../../http/errors.js';
import { ok } from '../../http/edge.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../../transactions/idempotency.js';
import { findTransaction, listTransactions } from '../../transactions/repository.js';
import { TRANSACTION_STATUSES } from '../../transactions/row.js';
import { TransactionSchema } from '../../transactions/schema.js';
import { serializeTransaction } from '../../transactions/serialize.js';
import { accountListRoute, accountReadRoute } from '../../routing/account-read.js';
import { ERROR_CODE_KEYWORD, validQuery } from '../../routing/validate-request.js';
import { instant } from '../../http/request-schema.js';
import { parseInstant } from '../../domain/instant.js';

const LISTED_TYPES = ['payment', 'withdrawal'] as const;

const GetTransactionQuery = Type.Object({
  refresh: Type.Optional(
    Type.Boolean({ default: false, description: 'true: consulta o estado mais recente na rota enquanto a cobrança está pendente' }),
  ),
});

export const listTransactionsRoute = accountListRoute({
  path: '/transactions',
  summary: 'Lista as transações da conta, das mais recentes para as mais antigas',
  operationId: 'listTransactions',
  filters: {
    status: Type.Optional(
      Type.Enum([...TRANSACTION_STATUSES], { description: 'Filtra pelo status', [ERROR_CODE_KEYWORD]: 'invalid_status' }),
    ),
    type: Type.Optional(
      Type.Enum([...LISTED_TYPES], {
        description: 'payment (cobranças) ou withdrawal (transferências)',
        [ERROR_CODE_KEYWORD]: 'invalid_type',
      }),
    ),
    createdFrom: Type.Optional(instant('Criadas a partir deste instante, incluído')),
    createdTo: Type.Optional(instant('Criadas antes deste instante, excluído')),
    recurrenceId: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: IDEMPOTENCY_KEY_PATTERN.source,
        description: 'As cobranças dos ciclos de uma recorrência (rec_…)',
      }),
    ),
  },
  item: TransactionSchema,
  list: (sql, accountId, { createdFrom, createdTo, ...query }) =>
    listTransactions(sql, accountId, {
      ...query,
      ...(createdFrom === undefined ? {} : { createdFrom: parseInstant(createdFrom)! }),
      ...(createdTo === undefined ? {} : { createdTo: parseInstant(createdTo)! }),
    }),
  show: serializeTransaction,
});

export const getTransactionRoute = accountReadRoute({
  path: '/transactions/:id',
  summary: 'Busca uma transação pelo identificador ou pelo externalId',
  operationId: 'getTransaction',
  request: {
    params: Type.Object({ id: Type.String({ description: 'Identificador da transação (txn_…, out_…) ou o externalId' }) }),
    query: GetTransactionQuery,
  },
  response: TransactionSchema,
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 404, code: 'not_found' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const { refresh } = validQuery(ctx, GetTransactionQuery);
    const row = await findTransaction(deps.sql, caller.account.id, ctx.params.id!);
    if (!row) throw notFound('Transação não encontrada');
    ok(ctx, serializeTransaction(refresh ? await refreshCharge(deps, row) : row));
  },
});
