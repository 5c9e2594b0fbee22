// POST /v1/transactions: create a Pix charge (201), repeat it (200, idempotent), or learn that it is
// still being accepted (202). The work happens in src/charges/create.ts, from the body parsed there once.
import { createCharge } from './create.js';
import { ChargeBodySchema, parseChargeBody, type ChargeBody } from './schema.js';
import { chargeWorkflowId } from './contract.js';
import { creationRoute } from '../routing/creation-route.js';

export const createChargeRoute = creationRoute({
  path: '/transactions',
  permission: 'payments:write',
  summary:
    'Cria uma cobrança Pix (QR code e copia e cola): imediata, válida por 15 minutos, ou com vencimento (dueDate), com multa, juros, descontos e abatimento',
  operationId: 'createCharge',
  body: ChargeBodySchema,
  errors: [
    { status: 400, code: 'SPLIT_INVALID' },
    { status: 400, code: 'SPLIT_RECIPIENT_INVALID' },
    { status: 400, code: 'SPLIT_TOO_MANY_RECIPIENTS' },
    { status: 404, code: 'SPLIT_RECIPIENT_NOT_FOUND' },
    { status: 409, code: 'SPLIT_RECIPIENT_SELF' },
    { status: 409, code: 'SPLIT_RECIPIENT_DUPLICATED' },
    { status: 422, code: 'SPLIT_EXCEEDS_SALE' },
  ],
  workflowId: chargeWorkflowId,
  // Only for a body ChargeBodySchema refused: the spec's code for its first problem.
  refuseBody: async (body, deps) => void parseChargeBody(body, { webhookAllowInsecure: deps.config.webhookAllowInsecure }),
  // The body ChargeBodySchema accepted (validate-request.ts), not checked against it again.
  create: (deps, caller, body, headerKey, requestId) => createCharge(deps, caller, body as ChargeBody, headerKey, requestId),
});
