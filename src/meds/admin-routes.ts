// Admin routes of MEDs: the simulator plays the payer's institution opening a dispute, and an
// operator (the receiving PSP's analyst) decides it. Both run through the MED workflow and answer 202
// with the MED as known when it does not answer within ACCEPT_WAIT_MS. Opening accepts an
// Idempotency-Key: a repeat with the same body answers the same MED (200), another body is a 409.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { reaisToCents } from '../domain/money.js';
import { ok } from '../http/edge.js';
import { notFound, operationRefused } from '../http/errors.js';
import { IdempotencyKeyHeaderSchema, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { MED_OUTCOMES } from './row.js';
import { MedSchema } from './schema.js';
import { serializeMed } from './serialize.js';
import { decideMedThroughWorkflow, openMedThroughWorkflow, type MedAnswer, type MedNotification } from './workflow-client.js';
import { closed, idParam, reaisField, trimmedText } from '../routing/admin-fields.js';
import { NOT_FOUND, OPERATION_REFUSED } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

const DEFAULT_REASON = 'fraud';

const NotificationBody = closed({
  transactionId: trimmedText(100, 'A cobrança contestada: id da transação (txn_…)'),
  amount: Type.Optional(reaisField(true, 'Valor contestado em reais; padrão: o que ainda não foi devolvido da cobrança')),
  reason: Type.Optional(
    trimmedText(200, `Motivo informado pela instituição do pagador, por exemplo fraud ou operational_failure (padrão ${DEFAULT_REASON})`),
  ),
});

const DecisionBody = closed({
  outcome: Type.Enum([...MED_OUTCOMES], { description: 'accepted: devolve o valor retido ao pagador; rejected: libera a retenção' }),
});

function answer(ctx: Koa.Context, { result, pending }: MedAnswer, status: number, extra: Record<string, unknown> = {}): void {
  if (!result.ok) throw result.code === 'not_found' ? notFound(result.message) : operationRefused(result.message);
  ok(ctx, serializeMed(result.med), pending ? 202 : status, extra);
}

async function open(ctx: Koa.Context, deps: Deps) {
  const header = ctx.get('idempotency-key');
  const key = header === '' ? null : resolveIdempotencyKey(header, undefined);
  const body = ctx.request.body as Static<typeof NotificationBody>;
  const notification: MedNotification = {
    transactionId: body.transactionId.trim(),
    amountCents: body.amount === undefined ? null : reaisToCents(body.amount)!,
    reason: body.reason?.trim() ?? DEFAULT_REASON,
  };
  const opened = await openMedThroughWorkflow(deps, notification, key);
  if (opened.result.ok && !opened.repeated)
    deps.log.info({ medId: opened.result.med.id, transactionId: notification.transactionId, pending: opened.pending }, 'MED opened');
  answer(ctx, opened, opened.repeated ? 200 : 201, key === null ? {} : { idempotent: opened.repeated });
}

async function decide(ctx: Koa.Context, deps: Deps) {
  const { outcome } = ctx.request.body as Static<typeof DecisionBody>;
  const decided = await decideMedThroughWorkflow(deps, ctx.params.id!, outcome);
  if (decided.result.ok && !decided.pending) deps.log.info({ medId: decided.result.med.id, outcome }, 'MED decided');
  answer(ctx, decided, 200);
}

const MED_REFUSALS = [NOT_FOUND, OPERATION_REFUSED];

export const MED_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/meds',
    summary: 'Simulador: a instituição do pagador abre uma MED sobre uma cobrança aprovada (retém o valor do saldo disponível)',
    operationId: 'openMed',
    request: { body: NotificationBody, headers: IdempotencyKeyHeaderSchema },
    response: MedSchema,
    successStatuses: [201, 200, 202],
    idempotent: 'with-key',
    errors: [{ status: 400, code: 'invalid_idempotency_key' }, { status: 409, code: 'idempotency_conflict' }, ...MED_REFUSALS],
    handler: open,
  },
  {
    method: 'POST',
    path: '/meds/:id/decision',
    summary: 'Decide uma MED aberta: accepted devolve o valor ao pagador, rejected libera a retenção',
    operationId: 'decideMed',
    request: { params: idParam('Identificador da MED (med_…)'), body: DecisionBody },
    response: MedSchema,
    successStatuses: [200, 202],
    errors: MED_REFUSALS,
    handler: decide,
  },
];
