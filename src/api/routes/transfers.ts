// POST /v1/transfers: request a Pix transfer from the available balance (201), repeat it (200,
// idempotent), or learn that it is still being accepted (202). The work happens in src/transfers/create.ts.
import type { Caller } from '../../accounts/account.js';
import { IdempotencyKeyHeaderSchema } from '../../charges/idempotency.js';
import { ok } from '../../http/edge.js';
import { TransactionSchema } from '../../transactions/schema.js';
import { createTransfer } from '../../transfers/create.js';
import { TransferBodySchema } from '../../transfers/schema.js';
import type { RouteSpec } from '../routes.js';

export const createTransferRoute: RouteSpec = {
  method: 'POST',
  path: '/transfers',
  permission: 'transfers:write',
  financial: true,
  summary: 'Solicita uma transferência Pix (chave Pix, copia e cola ou QR code) a partir do saldo disponível',
  operationId: 'createTransfer',
  request: {
    body: TransferBodySchema,
    headers: IdempotencyKeyHeaderSchema,
  },
  response: TransactionSchema,
  successStatuses: [201, 200, 202],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 400, code: 'idempotency_key_required' },
    { status: 400, code: 'invalid_idempotency_key' },
    { status: 409, code: 'idempotency_conflict' },
    { status: 409, code: 'WITHDRAWAL_IN_PROGRESS' },
    { status: 422, code: 'operation_refused' },
    { status: 423, code: 'invalid_request' },
    { status: 503, code: 'internal_error' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const answer = await createTransfer(deps, caller, ctx.request.body, ctx.get('idempotency-key') || undefined, ctx.state.requestId as string);
    ok(ctx, answer.transaction, answer.status, { idempotent: answer.idempotent });
  },
};
