// Admin routes of MEDs: the simulator plays the payer's institution opening a dispute, and an
// operator (the receiving PSP's analyst) decides it. Both run through the MED workflow and answer 202
// with the MED as known when it does not answer within ACCEPT_WAIT_MS. Opening accepts an
// Idempotency-Key: a repeat with the same body answers the same MED (200), another body is a 409.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { reaisToCents } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest } from '../../http/errors.js';
import { resolveIdempotencyKey } from '../../transactions/idempotency.js';
import { MED_OUTCOMES, type MedOutcome } from '../../meds/row.js';
import { decideMedThroughWorkflow, openMedThroughWorkflow, type MedAnswer, type MedNotification } from '../../meds/workflow-client.js';
import type { AdminRoute } from './index.js';

const DEFAULT_REASON = 'fraud';

function fieldsOf(body: unknown, allowed: string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('O corpo deve ser um objeto JSON');
  for (const field of Object.keys(body)) if (!allowed.includes(field)) throw invalidRequest(`Campo desconhecido: ${field}`);
  return body as Record<string, unknown>;
}

function parseNotification(body: unknown): MedNotification {
  const { transactionId, amount, reason } = fieldsOf(body, ['transactionId', 'amount', 'reason']);
  if (typeof transactionId !== 'string' || transactionId.trim() === '' || transactionId.length > 100) {
    throw invalidRequest('transactionId é obrigatório: o identificador da cobrança contestada');
  }
  let amountCents: number | null = null;
  if (amount !== undefined) {
    amountCents = reaisToCents(amount);
    if (amountCents === null || amountCents === 0) throw invalidRequest('amount deve ser um valor em reais maior que zero, com até duas casas decimais');
  }
  if (reason !== undefined && (typeof reason !== 'string' || reason.trim() === '' || reason.length > 200)) {
    throw invalidRequest('reason deve ser um texto de 1 a 200 caracteres (por exemplo fraud ou operational_failure)');
  }
  return { transactionId: transactionId.trim(), amountCents, reason: (reason as string | undefined)?.trim() ?? DEFAULT_REASON };
}

function parseOutcome(body: unknown): MedOutcome {
  const { outcome } = fieldsOf(body, ['outcome']);
  if (!MED_OUTCOMES.includes(outcome as MedOutcome)) throw invalidRequest(`outcome deve ser um de: ${MED_OUTCOMES.join(', ')}`);
  return outcome as MedOutcome;
}

function answer(ctx: Koa.Context, { result, pending }: MedAnswer, status: number, extra: Record<string, unknown> = {}): void {
  if (!result.ok) throw new ApiError(result.status, result.code, result.message);
  ok(ctx, result.med, pending ? 202 : status, extra);
}

async function open(ctx: Koa.Context, deps: Deps) {
  const header = ctx.get('idempotency-key');
  const key = header === '' ? null : resolveIdempotencyKey(header, undefined);
  const notification = parseNotification(ctx.request.body);
  const opened = await openMedThroughWorkflow(deps, notification, key);
  if (opened.result.ok && !opened.repeated) deps.log.info({ medId: opened.result.med.id, transactionId: notification.transactionId, pending: opened.pending }, 'MED opened');
  answer(ctx, opened, opened.repeated ? 200 : 201, key === null ? {} : { idempotent: opened.repeated });
}

async function decide(ctx: Koa.Context, deps: Deps) {
  const outcome = parseOutcome(ctx.request.body);
  const decided = await decideMedThroughWorkflow(deps, ctx.params.id!, outcome);
  if (decided.result.ok && !decided.pending) deps.log.info({ medId: decided.result.med.id, outcome }, 'MED decided');
  answer(ctx, decided, 200);
}

export const MED_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/simulator/meds', handler: open },
  { method: 'POST', path: '/meds/:id/decision', handler: decide },
];
