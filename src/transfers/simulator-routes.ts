// POST /admin/simulator/transfers/{id}/complete: the operator plays the Pix network and settles a
// pending transfer (`outcome`: approved or failed). The network records the answer, notifies the
// engine, and the answer is the transfer as the engine shows it: 200 once its workflow settled it,
// 202 while that takes longer than ACCEPT_WAIT_MS (or its read fails after the network's commit).
// A repeat with the outcome the network already has answers the same way; the other outcome is a 409.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { ApiError, notFound } from '../http/errors.js';
import { completeTransfer, TransferNotPending } from '../pix-routes/simulator-transfers.js';
import { findTransaction, findTransfer } from '../transactions/repository.js';
import type { TransactionRow } from '../transactions/row.js';
import { serializeTransaction } from '../transactions/serialize.js';
import { notifyTransferAnswered, transferSettled } from './workflow-client.js';
import { afterCommit } from '../routing/after-commit.js';
import { TransactionSchema } from '../transactions/schema.js';
import { closed, idParam } from '../routing/admin-fields.js';
import { NOT_FOUND } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

const OUTCOMES = ['approved', 'failed'] as const;
type Outcome = (typeof OUTCOMES)[number];

const CompleteBody = closed({
  outcome: Type.Enum([...OUTCOMES], { description: 'approved: a transferência foi feita; failed: não foi, o valor volta ao saldo' }),
});

/** The network records the outcome; a transfer it already settled the same way is a repeat, not an error. */
async function recordOutcome(deps: Deps, transferId: string, outcome: Outcome): Promise<void> {
  try {
    await completeTransfer(deps.sql, transferId, outcome);
  } catch (err) {
    if (!(err instanceof TransferNotPending)) throw err;
    if (err.status === 'not_found')
      throw new ApiError(409, 'invalid_request', 'A transferência ainda não chegou à rede; tente novamente em instantes');
    if (err.status !== outcome) throw new ApiError(409, 'invalid_request', `A transferência já foi concluída na rede (${err.status})`);
  }
}

async function complete(ctx: Koa.Context, deps: Deps) {
  const { outcome } = ctx.request.body as Static<typeof CompleteBody>;
  const before = await findTransfer(deps.sql, ctx.params.id!);
  if (!before) throw notFound('Transferência não encontrada');
  await recordOutcome(deps, before.id, outcome);

  const settled = () => transferSettled(deps, before.accountId, before.externalId);
  await afterCommit(deps, { transactionId: before.id }, () => notifyTransferAnswered(deps, before.id).then(settled));
  let known: TransactionRow = before;
  await afterCommit(
    deps,
    { transactionId: before.id },
    async () => (known = (await findTransaction(deps.sql, before.accountId, before.id)) ?? before),
  );
  ok(ctx, serializeTransaction(known), known.status === 'pending' ? 202 : 200);
}

export const SIMULATOR_TRANSFER_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/transfers/:id/complete',
    summary: 'Simulador: a rede conclui uma transferência pendente (approved ou failed); 202 enquanto o motor ainda não a liquidou',
    operationId: 'completeTransfer',
    request: { params: idParam('Identificador da transferência (out_…)'), body: CompleteBody },
    response: TransactionSchema,
    successStatuses: [200, 202],
    errors: [NOT_FOUND, { status: 409, code: 'invalid_request' }],
    handler: complete,
  },
];
