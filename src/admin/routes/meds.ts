// Admin routes of MEDs: the simulator plays the payer's institution opening a dispute, and an
// operator (the receiving PSP's analyst) decides it. Both run through the MED workflow.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { reaisToCents } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest } from '../../http/errors.js';
import type { MedChangeResult } from '../../meds/results.js';
import { MED_OUTCOMES, type MedOutcome } from '../../meds/row.js';
import { decideMedThroughWorkflow, openMedThroughWorkflow, type MedNotification } from '../../meds/workflow-client.js';
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

function answer(ctx: Koa.Context, result: MedChangeResult, status: number): void {
  if (!result.ok) throw new ApiError(result.status, result.code, result.message);
  ok(ctx, result.med, status);
}

async function open(ctx: Koa.Context, deps: Deps) {
  const result = await openMedThroughWorkflow(deps, parseNotification(ctx.request.body));
  if (result.ok) deps.log.info({ medId: result.med.id, transactionId: result.med.transactionId }, 'MED opened');
  answer(ctx, result, 201);
}

async function decide(ctx: Koa.Context, deps: Deps) {
  const outcome = parseOutcome(ctx.request.body);
  const result = await decideMedThroughWorkflow(deps, ctx.params.id!, outcome);
  if (result.ok) deps.log.info({ medId: result.med.id, outcome }, 'MED decided');
  answer(ctx, result, 200);
}

export const MED_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/simulator/meds', handler: open },
  { method: 'POST', path: '/meds/:id/decision', handler: decide },
];
