// Admin routes of webhooks: endpoints (register, list, disable) and the delivery log (list, show,
// manual redelivery).
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { ok } from '../../http/edge.js';
import { invalidRequest, notFound, operationRefused } from '../../http/errors.js';
import { findDeliveries, findDelivery, type DeliveryFilter } from '../../webhooks/deliveries.js';
import { redeliver } from '../../webhooks/workflow-client.js';
import { disableEndpoint, listEndpoints, MAX_ENDPOINTS_PER_ACCOUNT, registerEndpoint, type WebhookEndpoint } from '../../webhooks/endpoints.js';
import { checkReceiverUrl } from '../../webhooks/ssrf.js';
import type { AdminRoute } from './index.js';

const accountNotFound = () => notFound('Conta não encontrada');
const deliveryNotFound = () => notFound('Entrega de webhook não encontrada');

/** An endpoint without its secret (shown only at registration). */
function endpointJson(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    accountId: endpoint.accountId,
    url: endpoint.url,
    createdAt: endpoint.createdAt.toISOString(),
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
  };
}

function parseUrlBody(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('O corpo deve ser um objeto JSON com url');
  const unknown = Object.keys(body).find((field) => field !== 'url');
  if (unknown !== undefined) throw invalidRequest(`Campo desconhecido: ${unknown}`);
  const { url } = body as { url?: unknown };
  if (typeof url !== 'string' || url.trim() === '') throw invalidRequest('url é obrigatório e deve ser um texto');
  return url.trim();
}

async function register(ctx: Koa.Context, deps: Deps) {
  const check = await checkReceiverUrl(parseUrlBody(ctx.request.body), deps.config.webhookAllowInsecure);
  if (!check.ok) throw invalidRequest(check.reason);
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
      ok(ctx, { ...endpointJson(endpoint), secret }, 201);
    }
  }
}

async function list(ctx: Koa.Context, deps: Deps) {
  const [account] = await deps.sql`select id from accounts where id = ${ctx.params.id!}`;
  if (!account) throw accountNotFound();
  ok(ctx, (await listEndpoints(deps.sql, ctx.params.id!)).map(endpointJson));
}

async function disable(ctx: Koa.Context, deps: Deps) {
  const endpoint = await disableEndpoint(deps.sql, ctx.params.id!);
  if (!endpoint) throw notFound('Endpoint de webhook não encontrado');
  deps.log.info({ accountId: endpoint.accountId, endpointId: endpoint.id }, 'webhook endpoint disabled');
  ok(ctx, endpointJson(endpoint));
}

function deliveryFilter(query: Koa.Context['query']): DeliveryFilter {
  const filter: DeliveryFilter = {};
  for (const name of ['transactionId', 'eventId'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value === '') throw invalidRequest(`${name} deve ser informado uma vez, não vazio`);
    filter[name] = value;
  }
  if (Object.keys(filter).length === 0) throw invalidRequest('Informe transactionId ou eventId');
  return filter;
}

async function deliveries(ctx: Koa.Context, deps: Deps) {
  ok(ctx, await findDeliveries(deps.sql, deliveryFilter(ctx.query)));
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

export const WEBHOOK_ROUTES: AdminRoute[] = [
  { method: 'POST', path: '/accounts/:id/webhook-endpoints', handler: register },
  { method: 'GET', path: '/accounts/:id/webhook-endpoints', handler: list },
  { method: 'DELETE', path: '/webhook-endpoints/:id', handler: disable },
  { method: 'GET', path: '/webhook-deliveries', handler: deliveries },
  { method: 'GET', path: '/webhook-deliveries/:id', handler: delivery },
  { method: 'POST', path: '/webhook-deliveries/:id/retry', handler: retry },
];
