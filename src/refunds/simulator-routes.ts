// POST /admin/simulator/refunds/{id}/complete: the operator plays the Pix network and settles a
// pending devolução (`outcome`: approved or failed), as for transfers (simulator-transfers.ts): the
// network records the answer, notifies the engine, and the answer is the refund as the engine shows it:
// 200 once its workflow settled it, 202 while that takes longer than ACCEPT_WAIT_MS. A repeat with the
// outcome the network already has answers the same way; the other outcome is a 409.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { ApiError, notFound } from '../http/errors.js';
import { SIMULATOR_ROUTE } from '../pix-routes/simulator.js';
import { completeRefund, RefundNotPending } from '../pix-routes/simulator-refunds.js';
import { findRefund } from './repository.js';
import type { RefundRow } from './row.js';
import { RefundSchema } from './schema.js';
import { serializeRefund } from './serialize.js';
import { notifyRefundAnswered, refundSettled } from './workflow-client.js';
import { afterCommit } from '../routing/after-commit.js';
import { closed, idParam } from '../routing/admin-fields.js';
import { NOT_FOUND } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

const OUTCOMES = ['approved', 'failed'] as const;
type Outcome = (typeof OUTCOMES)[number];

const CompleteBody = closed({
  outcome: Type.Enum([...OUTCOMES], { description: 'approved: o valor voltou ao pagador; failed: não voltou, a reserva volta ao saldo' }),
});

async function recordOutcome(deps: Deps, refundId: string, outcome: Outcome): Promise<void> {
  try {
    await completeRefund(deps.sql, refundId, outcome);
  } catch (err) {
    if (!(err instanceof RefundNotPending)) throw err;
    if (err.status === 'not_found')
      throw new ApiError(409, 'invalid_request', 'A devolução ainda não chegou à rede; tente novamente em instantes');
    if (err.status !== outcome) throw new ApiError(409, 'invalid_request', `A devolução já foi concluída na rede (${err.status})`);
  }
}

async function complete(ctx: Koa.Context, deps: Deps) {
  const { outcome } = ctx.request.body as Static<typeof CompleteBody>;
  const before = await findRefund(deps.sql, ctx.params.id!);
  if (!before || before.route !== SIMULATOR_ROUTE) throw notFound('Devolução não encontrada no simulador');
  await recordOutcome(deps, before.id, outcome);

  const settled = () => refundSettled(deps, before.accountId, before.idempotencyKey);
  await afterCommit(deps, { refundId: before.id }, () => notifyRefundAnswered(deps, before.id).then(settled));
  let known: RefundRow = before;
  await afterCommit(deps, { refundId: before.id }, async () => (known = (await findRefund(deps.sql, before.id)) ?? before));
  ok(ctx, serializeRefund(known), known.status === 'pending' ? 202 : 200);
}

export const SIMULATOR_REFUND_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/refunds/:id/complete',
    summary: 'Simulador: a rede conclui uma devolução pendente (approved ou failed); 202 enquanto o motor ainda não a liquidou',
    operationId: 'completeRefund',
    request: { params: idParam('Identificador da devolução (rfd_…)'), body: CompleteBody },
    response: RefundSchema,
    successStatuses: [200, 202],
    errors: [NOT_FOUND, { status: 409, code: 'invalid_request' }],
    handler: complete,
  },
];
