// POST /v1/transfers: request a Pix transfer from the available balance (201), repeat it (200,
// idempotent), or learn that it is still being accepted (202). The work happens in src/transfers/create.ts.
import type { Caller } from '../accounts/account.js';
import { createTransfer } from './create.js';
import { readQrImageDestination } from './destination.js';
import { parseTransferBody, TransferBodySchema } from './schema.js';
import { transferWorkflowId } from './contract.js';
import { creationRoute } from '../routing/creation-route.js';

export const createTransferRoute = creationRoute({
  path: '/transfers',
  permission: 'transfers:write',
  summary: 'Solicita uma transferência Pix (chave Pix, copia e cola ou QR code) a partir do saldo disponível',
  operationId: 'createTransfer',
  body: TransferBodySchema,
  errors: [
    { status: 409, code: 'WITHDRAWAL_IN_PROGRESS' },
    { status: 423, code: 'invalid_request' },
  ],
  workflowId: transferWorkflowId,
  // The QR image is read first, as the creation does: its own refusals come before the body's.
  refuseBody: async (body, _deps, ctx) =>
    void parseTransferBody(await readQrImageDestination(body, (ctx.state.caller as Caller).account.id)),
  create: createTransfer,
});
