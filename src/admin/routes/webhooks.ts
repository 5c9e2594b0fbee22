// Admin routes of webhooks: endpoints (register, list, disable) and the delivery log (list, show,
// manual redelivery).
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { validQuery } from '../../routing/validate-request.js';
import { accountExists } from '../../accounts/repository.js';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { invalidRequest, notFound, operationRefused } from '../../http/errors.js';
import { findDeliveries, findDelivery, type DeliveryFilter } from '../../webhooks/deliveries.js';
import { redeliver } from '../../webhooks/workflow-client.js';
import { disableEndpoint, listEndpoints, MAX_ENDPOINTS_PER_ACCOUNT, registerEndpoint } from '../../webhooks/endpoints.js';
import { checkReceiverUrl } from '../../webhooks/ssrf.js';
import { closed, idParam, trimmedText } from '../../routing/admin-fields.js';
import { withIsoDates } from '../iso-dates.js';
import { accountNotFound, AccountParams } from './accounts.js';
import { NOT_FOUND, OPERATION_REFUSED } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const EndpointBody = closed({ url: trimmedText(null, 'URL HTTPS pública que recebe os eventos da conta') });

const WebhookEndpointSchema = closed(
  {
    id: Type.String({ description: 'whe_…' }),
    accountId: Type.String(),
    url: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    disabledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { $id: 'WebhookEndpoint' },
);

const RegisteredEndpointSchema = Type.Object(
  {
    ...WebhookEndpointSchema.properties,
    secret: Type.String({ description: 'Segredo das assinaturas (X-Service-Signature); mostrado só nesta resposta' }),
  },
  { additionalProperties: false },
);

const Attempt = closed({
  number: Type.Integer({ minimum: 1 }),
  trigger: Type.Enum(['automatic', 'manual']),
  success: Type.Boolean(),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Status HTTP da resposta do recebedor' }),
  errorCode: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Number({ minimum: 0 }),
  startedAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.String({ format: 'date-time' }),
});

const DeliverySchema = closed(
  {
    id: Type.String(),
    eventId: Type.String(),
    event: Type.String(),
    accountId: Type.String(),
    transactionId: Type.Union([Type.String(), Type.Null()]),
    target: Type.Enum(['endpoint', 'charge'], { description: 'endpoint: um endpoint da conta; charge: o webhookUrl da cobrança' }),
    url: Type.String(),
    endpointId: Type.Union([Type.String(), Type.Null()]),
    signedWith: Type.Enum(['endpoint_secret', 'api_key_hash']),
    status: Type.Enum(['pending', 'succeeded', 'failed', 'cancelled']),
    attemptCount: Type.Integer({ minimum: 0 }),
    deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    attempts: Type.Array(Attempt),
  },
  { $id: 'WebhookDelivery' },
);

const DeliveriesQuery = Type.Object(
  {
    transactionId: Type.Optional(Type.String({ minLength: 1, description: 'Entregas dos eventos desta transação' })),
    eventId: Type.Optional(Type.String({ minLength: 1, description: 'Entregas deste evento' })),
  },
  { description: 'Informe transactionId ou eventId (ou os dois)' },
);

const deliveryNotFound = () => notFound('Entrega de webhook não encontrada');

async function register(ctx: Koa.Context, deps: Deps) {
  const { url } = ctx.request.body as Static<typeof EndpointBody>;
  const check = await checkReceiverUrl(url.trim(), deps.config.webhookAllowInsecure);
  if (!check.ok) throw invalidRequest(check.reason, '/url');
  const registration = await registerEndpoint(deps.sql, ctx.params.id!, check.url.href);
  switch (registration.outcome) {
    case 'account_not_found':
      throw accountNotFound();
    case 'duplicate':
      throw operationRefused('Esta url já está cadastrada como endpoint ativo da conta');
    case 'too_many':
      throw operationRefused(`A conta já tem ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints ativos`);
    case 'created': {
      const { endpoint, secret } = registration;
      deps.log.info({ accountId: endpoint.accountId, endpointId: endpoint.id }, 'webhook endpoint registered');
      ok(ctx, { ...withIsoDates(endpoint), secret }, 201);
    }
  }
}

async function list(ctx: Koa.Context, deps: Deps) {
  if (!(await accountExists(deps.sql, ctx.params.id!))) throw accountNotFound();
  ok(ctx, (await listEndpoints(deps.sql, ctx.params.id!)).map(withIsoDates));
}

async function disable(ctx: Koa.Context, deps: Deps) {
  const endpoint = await disableEndpoint(deps.sql, ctx.params.id!);
  if (!endpoint) throw notFound('Endpoint de webhook não encontrado');
  deps.log.info({ accountId: endpoint.accountId, endpointId: endpoint.id }, 'webhook endpoint disabled');
  ok(ctx, withIsoDates(endpoint));
}

async function deliveries(ctx: Koa.Context, deps: Deps) {
  const filter: DeliveryFilter = validQuery(ctx, DeliveriesQuery);
  if (filter.transactionId === undefined && filter.eventId === undefined) throw invalidRequest('Informe transactionId ou eventId');
  ok(ctx, await findDeliveries(deps.sql, filter));
}

async function delivery(ctx: Koa.Context, deps: Deps) {
  const found = await findDelivery(deps.sql, ctx.params.id!);
  if (!found) throw deliveryNotFound();
  ok(ctx, found);
}

/** 200 with the delivery and its new attempt; 202 when the attempt is still running after the wait. */
async function retry(ctx: Koa.Context, deps: Deps) {
  const found = await findDelivery(deps.sql, ctx.params.id!);
  if (!found) throw deliveryNotFound();
  const result = await redeliver(deps, found);
  if (result?.outcome === 'abandoned') throw operationRefused('O endpoint desta entrega foi desativado');
  deps.log.info({ deliveryId: found.id, outcome: result?.outcome ?? 'running' }, 'webhook redelivered by an operator');
  ok(ctx, await findDelivery(deps.sql, found.id), result === null ? 202 : 200);
}

const DeliveryParams = idParam('Identificador da entrega');

export const WEBHOOK_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/accounts/:id/webhook-endpoints',
    summary: `Cadastra um endpoint de webhook da conta (até ${MAX_ENDPOINTS_PER_ACCOUNT} ativos); o segredo aparece só nesta resposta`,
    operationId: 'registerWebhookEndpoint',
    request: { params: AccountParams, body: EndpointBody },
    response: RegisteredEndpointSchema,
    successStatuses: [201],
    errors: [NOT_FOUND, OPERATION_REFUSED],
    handler: register,
  },
  {
    method: 'GET',
    path: '/accounts/:id/webhook-endpoints',
    summary: 'Lista os endpoints de webhook da conta (sem segredo)',
    operationId: 'listWebhookEndpoints',
    request: { params: AccountParams },
    response: Type.Array(WebhookEndpointSchema),
    errors: [NOT_FOUND],
    handler: list,
  },
  {
    method: 'DELETE',
    path: '/webhook-endpoints/:id',
    summary: 'Desativa um endpoint de webhook',
    operationId: 'disableWebhookEndpoint',
    request: { params: idParam('Identificador do endpoint (whe_…)') },
    response: WebhookEndpointSchema,
    errors: [NOT_FOUND],
    handler: disable,
  },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    summary: 'Entregas de webhook de uma transação ou de um evento, com suas tentativas (status, erro, duração)',
    operationId: 'listWebhookDeliveries',
    request: { query: DeliveriesQuery },
    response: Type.Array(DeliverySchema),
    handler: deliveries,
  },
  {
    method: 'GET',
    path: '/webhook-deliveries/:id',
    summary: 'Uma entrega de webhook com suas tentativas',
    operationId: 'getWebhookDelivery',
    request: { params: DeliveryParams },
    response: DeliverySchema,
    errors: [NOT_FOUND],
    handler: delivery,
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/:id/retry',
    summary: 'Entrega de novo (uma tentativa manual); 202 se a tentativa ainda corre depois da espera',
    operationId: 'retryWebhookDelivery',
    request: { params: DeliveryParams },
    response: DeliverySchema,
    successStatuses: [200, 202],
    errors: [NOT_FOUND, OPERATION_REFUSED],
    handler: retry,
  },
];
