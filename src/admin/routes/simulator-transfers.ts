// POST /admin/simulator/transfers/{id}/complete: the operator plays the Pix network and settles a
// pending transfer (`outcome`: approved or failed). The network records the answer, notifies the
// engine, and the answer is the transfer as the engine shows it once its workflow settled (or as
// known when that takes longer than ACCEPT_WAIT_MS).
import type Koa from 'koa';
import { within } from '../../charges/bounded-wait.js';
import type { Deps } from '../../deps.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../../http/errors.js';
import { completeTransfer, TransferNotPending } from '../../processors/simulator-transfers.js';
import { findTransaction } from '../../transactions/repository.js';
import { serializeTransaction } from '../../transactions/serialize.js';
import { transferWorkflowId } from '../../transfers/ids.js';
import { notifyTransferAnswered } from '../../transfers/notify.js';
import type { AdminRoute } from './index.js';

const OUTCOMES = ['approved', 'failed'] as const;

function parseOutcome(body: unknown): (typeof OUTCOMES)[number] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('O corpo deve ser um objeto JSON com outcome');
  const unknown = Object.keys(body).find((field) => field !== 'outcome');
  if (unknown !== undefined) throw invalidRequest(`Campo desconhecido: ${unknown}`);
  const { outcome } = body as { outcome?: unknown };
  if (!OUTCOMES.includes(outcome as never)) throw invalidRequest('outcome deve ser approved ou failed');
  return outcome as (typeof OUTCOMES)[number];
}

async function complete(ctx: Koa.Context, deps: Deps) {
  const outcome = parseOutcome(ctx.request.body);
  const [transfer] = await deps.sql<{ accountId: string }[]>`
    select account_id as "accountId" from transactions where id = ${ctx.params.id!} and type = 'withdrawal'`;
  if (!transfer) throw notFound('Transferência não encontrada');
  try {
    await completeTransfer(deps.sql, ctx.params.id!, outcome);
  } catch (err) {
    if (!(err instanceof TransferNotPending)) throw err;
    throw err.status === 'not_found'
      ? new ApiError(409, 'invalid_request', 'A transferência ainda não chegou à rede; tente novamente em instantes')
      : new ApiError(409, 'invalid_request', `A transferência já foi concluída na rede (${err.status})`);
  }
  await notifyTransferAnswered(deps, ctx.params.id!);
  const row = (await findTransaction(deps.sql, transfer.accountId, ctx.params.id!))!;
  const settled = deps.temporal.workflow.getHandle(transferWorkflowId(row.accountId, row.externalId)).result();
  // However the workflow ends, the read model is the answer.
  await within(settled.catch(() => null), deps.config.acceptWaitMs);
  ok(ctx, serializeTransaction((await findTransaction(deps.sql, row.accountId, row.id))!));
}

export const SIMULATOR_TRANSFER_ROUTES: AdminRoute[] = [{ method: 'POST', path: '/simulator/transfers/:id/complete', handler: complete }];
