// Admin routes of refunds (devolução, books.md): an operator returns all or part of a received Pix to
// its payer. Creation takes a required Idempotency-Key and runs through the refund's workflow: 201
// new, 200 a repeat (idempotent), 409 the key with another body, 202 while the workflow has not
// accepted it within ACCEPT_WAIT_MS; its refusals are 422 operation_refused naming the reason.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { reaisToCents } from '../domain/money.js';
import { ok } from '../http/edge.js';
import { notFound } from '../http/errors.js';
import { createRefund, refundKey } from './create.js';
import { findRefund, findRefundedCharge, listRefunds } from './repository.js';
import { RefundSchema } from './schema.js';
import { serializeRefund } from './serialize.js';
import { closed, idParam, reaisField, trimmedText } from '../routing/admin-fields.js';
import { NOT_FOUND, OPERATION_REFUSED } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

const RefundBody = closed({
  amount: Type.Optional(reaisField(true, 'Valor a devolver em reais; padrão: tudo o que ainda é devolvível da cobrança')),
  reason: Type.Optional(trimmedText(140, 'Motivo da devolução')),
});

const RefundKeyHeader = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({ description: 'Obrigatória: até 100 caracteres, letras, dígitos e . _ : / -, sem o formato de um id do serviço' }),
  ),
});

const OUTCOME_STATUS = { created: 201, repeated: 200, accepting: 202 } as const;

async function chargeOf(deps: Deps, id: string): Promise<{ id: string; accountId: string; route: string }> {
  const charge = await findRefundedCharge(deps.sql, id);
  if (!charge) throw notFound('Transação não encontrada');
  return charge;
}

async function create(ctx: Koa.Context, deps: Deps) {
  const key = refundKey(ctx.get('idempotency-key') || undefined);
  const charge = await chargeOf(deps, ctx.params.id!);
  const body = ctx.request.body as Static<typeof RefundBody>;
  const asked = { amountCents: body.amount === undefined ? null : reaisToCents(body.amount)!, reason: body.reason?.trim() ?? null };
  const answer = await createRefund(deps, charge, asked, key, ctx.state.requestId as string);
  if (answer.outcome === 'created') deps.log.info({ refundId: answer.refund.id, transactionId: charge.id }, 'refund accepted');
  ok(ctx, serializeRefund(answer.refund), OUTCOME_STATUS[answer.outcome], { idempotent: answer.outcome === 'repeated' });
}

async function list(ctx: Koa.Context, deps: Deps) {
  const charge = await chargeOf(deps, ctx.params.id!);
  ok(ctx, (await listRefunds(deps.sql, charge.id)).map(serializeRefund));
}

async function show(ctx: Koa.Context, deps: Deps) {
  const refund = await findRefund(deps.sql, ctx.params.id!);
  if (!refund) throw notFound('Devolução não encontrada');
  ok(ctx, serializeRefund(refund));
}

export const REFUND_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/transactions/:id/refunds',
    summary: 'Devolve ao pagador todo ou parte de uma cobrança aprovada (reserva o valor do saldo disponível da conta)',
    operationId: 'createRefund',
    request: { params: idParam('Identificador da cobrança (txn_…)'), body: RefundBody, optionalBody: true, headers: RefundKeyHeader },
    response: RefundSchema,
    successStatuses: [201, 200, 202],
    idempotent: 'always',
    errors: [
      { status: 400, code: 'idempotency_key_required' },
      { status: 400, code: 'invalid_idempotency_key' },
      NOT_FOUND,
      { status: 409, code: 'idempotency_conflict' },
      OPERATION_REFUSED,
    ],
    handler: create,
  },
  {
    method: 'GET',
    path: '/transactions/:id/refunds',
    summary: 'Lista as devoluções de uma cobrança, da mais antiga à mais recente',
    operationId: 'listRefunds',
    request: { params: idParam('Identificador da cobrança (txn_…)') },
    response: Type.Array(RefundSchema),
    errors: [NOT_FOUND],
    handler: list,
  },
  {
    method: 'GET',
    path: '/refunds/:id',
    summary: 'Mostra uma devolução',
    operationId: 'getRefund',
    request: { params: idParam('Identificador da devolução (rfd_…)') },
    response: RefundSchema,
    errors: [NOT_FOUND],
    handler: show,
  },
];
