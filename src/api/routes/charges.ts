// POST /v1/transactions: create a Pix charge (201), repeat it (200, idempotent), or learn that it is
// still being accepted (202). The work happens in src/charges/create.ts.
import type { Caller } from '../../accounts/account.js';
import { createCharge } from '../../charges/create.js';
import { IdempotencyKeyHeaderSchema } from '../../charges/idempotency.js';
import { ChargeBodySchema } from '../../charges/schema.js';
import { ok } from '../../http/edge.js';
import { TransactionSchema } from '../../transactions/schema.js';
import type { RouteSpec } from '../routes.js';

export const createChargeRoute: RouteSpec = {
  method: 'POST',
  path: '/transactions',
  permission: 'payments:write',
  financial: true,
  summary: 'Cria uma cobrança Pix (QR code e copia e cola), válida por 15 minutos',
  operationId: 'createCharge',
  request: {
    body: ChargeBodySchema,
    headers: IdempotencyKeyHeaderSchema,
  },
  response: TransactionSchema,
  successStatuses: [201, 200, 202],
  errors: [
    { status: 400, code: 'invalid_request' },
    { status: 400, code: 'idempotency_key_required' },
    { status: 400, code: 'invalid_idempotency_key' },
    { status: 400, code: 'SPLIT_INVALID' },
    { status: 400, code: 'SPLIT_RECIPIENT_INVALID' },
    { status: 400, code: 'SPLIT_TOO_MANY_RECIPIENTS' },
    { status: 404, code: 'SPLIT_RECIPIENT_NOT_FOUND' },
    { status: 409, code: 'idempotency_conflict' },
    { status: 409, code: 'SPLIT_RECIPIENT_SELF' },
    { status: 409, code: 'SPLIT_RECIPIENT_DUPLICATED' },
    { status: 422, code: 'operation_refused' },
    { status: 422, code: 'SPLIT_EXCEEDS_SALE' },
    { status: 503, code: 'internal_error' },
  ],
  async handler(ctx, deps) {
    const caller = ctx.state.caller as Caller;
    const answer = await createCharge(deps, caller, ctx.request.body, ctx.get('idempotency-key') || undefined, ctx.state.requestId as string);
    ok(ctx, answer.transaction, answer.status, { idempotent: answer.idempotent });
  },
};
