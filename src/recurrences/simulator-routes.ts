// The simulated payer of Pix Automático (simulator route only): authorize, reject or cancel a
// recurrence as the payer's bank app would, and fail a cycle charge's debit attempt for lack of
// funds. Each change goes through the recurrence's workflow (its `change` update); a decline is the
// network's answer about the attempt, which the charge's workflow confirms with the route.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { ApiError, notFound } from '../http/errors.js';
import { reaisToCents } from '../domain/money.js';
import { notifyChargePaid } from '../charges/workflow-client.js';
import { ChargeNotPayable, declineCharge, findNetworkCharge, SIMULATOR_ROUTE, type NetworkCharge } from '../pix-routes/simulator.js';
import { findRecurrenceOnRoute, loadRecurrence, recurrenceIdOfCycle } from './repository.js';
import type { RecurrenceRow } from './row.js';
import { RecurrenceSchema } from './schema.js';
import { serializeRecurrence } from './serialize.js';
import { changeRecurrence } from './workflow-client.js';
import type { RecurrenceChange } from './contract.js';
import { afterCommit } from '../routing/after-commit.js';
import { closed, idParam, reaisField } from '../routing/admin-fields.js';
import { NOT_FOUND } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';
import { NetworkChargeSchema, networkChargeJson, REFUSALS } from '../charges/simulator-routes.js';

const AuthorizeBody = closed({
  maximumAmount: Type.Optional(reaisField(true, 'Valor máximo que o pagador autoriza por ciclo (reais); ausente: sem limite')),
});

const RECURRENCE_PARAM = idParam('Identificador da recorrência (rec_…)');
const INVALID_STATUS = { status: 409, code: 'invalid_recurrence_status' };

/** A recurrence of the simulated network: one on the simulator route. */
async function simulatedRecurrence(deps: Deps, id: string): Promise<RecurrenceRow> {
  const recurrence = await findRecurrenceOnRoute(deps.sql, id, SIMULATOR_ROUTE);
  if (!recurrence) throw notFound('Recorrência não encontrada na rede simulada');
  return recurrence;
}

/** The payer's change, through the recurrence's workflow; answers the recurrence after it. */
async function payerChange(ctx: Koa.Context, deps: Deps, change: RecurrenceChange): Promise<void> {
  const recurrence = await simulatedRecurrence(deps, ctx.params.id!);
  await changeRecurrence(deps, recurrence, change);
  ok(ctx, serializeRecurrence(await loadRecurrence(deps.sql, recurrence.id)));
}

async function decline(ctx: Koa.Context, deps: Deps): Promise<void> {
  const charge = await findNetworkCharge(deps.sql, ctx.params.id!);
  if (!charge) throw REFUSALS.not_found();
  if (!(await recurrenceIdOfCycle(deps.sql, charge.transactionId)))
    throw new ApiError(422, 'operation_refused', 'Só a cobrança de um ciclo de recorrência é debitada pelo banco do pagador');
  let declined: NetworkCharge;
  try {
    declined = await declineCharge(deps.sql, charge.txid);
  } catch (err) {
    if (!(err instanceof ChargeNotPayable)) throw err;
    // A retried decline: the network tells the receiver again, in case the first notification was lost
    // (on the simulator a cycle's workflow does not poll, so it would otherwise wait for the expiry).
    if (err.reason === 'attempt_declined')
      await afterCommit(deps, { transactionId: charge.transactionId }, () => notifyChargePaid(deps, charge.transactionId));
    throw REFUSALS[err.reason]();
  }
  await afterCommit(deps, { transactionId: declined.transactionId }, () => notifyChargePaid(deps, declined.transactionId));
  ok(ctx, networkChargeJson(declined));
}

export const SIMULATOR_RECURRENCE_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/recurrences/:id/authorize',
    summary: 'Simulador: o pagador autoriza a recorrência no app do banco (active)',
    operationId: 'authorizeRecurrence',
    request: { params: RECURRENCE_PARAM, body: AuthorizeBody, optionalBody: true },
    response: RecurrenceSchema,
    errors: [NOT_FOUND, INVALID_STATUS],
    handler: (ctx, deps) => {
      const { maximumAmount } = (ctx.request.body ?? {}) as Static<typeof AuthorizeBody>;
      return payerChange(ctx, deps, {
        change: 'authorize',
        ...(maximumAmount === undefined ? {} : { maximumAmountCents: reaisToCents(maximumAmount)! }),
      });
    },
  },
  {
    method: 'POST',
    path: '/simulator/recurrences/:id/reject',
    summary: 'Simulador: o pagador recusa a recorrência (rejected)',
    operationId: 'rejectRecurrence',
    request: { params: RECURRENCE_PARAM },
    response: RecurrenceSchema,
    errors: [NOT_FOUND, INVALID_STATUS],
    handler: (ctx, deps) => payerChange(ctx, deps, { change: 'reject' }),
  },
  {
    method: 'POST',
    path: '/simulator/recurrences/:id/cancel',
    summary: 'Simulador: o pagador cancela a recorrência (cancelled, cancelledBy payer); os ciclos ainda não vencidos são cancelados',
    operationId: 'cancelRecurrenceAsPayer',
    request: { params: RECURRENCE_PARAM },
    response: RecurrenceSchema,
    errors: [NOT_FOUND, INVALID_STATUS],
    handler: (ctx, deps) => payerChange(ctx, deps, { change: 'cancel', by: 'payer' }),
  },
  {
    method: 'POST',
    path: '/simulator/charges/:id/decline',
    summary: 'Simulador: esta tentativa de débito de uma cobrança de ciclo falha por falta de saldo',
    operationId: 'declineCharge',
    request: { params: idParam('Identificador da transação (txn_…) ou txid do BR Code') },
    response: NetworkChargeSchema,
    errors: [
      NOT_FOUND,
      { status: 409, code: 'charge_already_paid' },
      { status: 409, code: 'attempt_already_declined' },
      { status: 422, code: 'charge_cancelled' },
      { status: 422, code: 'charge_expired' },
      { status: 422, code: 'operation_refused' },
    ],
    handler: decline,
  },
];
