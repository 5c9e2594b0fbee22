// The PSP webhook listener's app: `POST /psp-webhooks/{route}/pix` (PSPs append `/pix` to the URL the
// engine registered). A configured bcb-api-pix route, a JSON body: 200 at once, and the hints are acted
// on after the answer (hints.ts). Unknown route → 404, a body that is not JSON → 400, with the
// service's envelope and request log (src/http/edge.ts). The body is never logged: it names payers.
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { edge, jsonBody, ok } from '../http/edge.js';
import { invalidRequest, notFound } from '../http/errors.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { actOnHints, pixHints } from './hints.js';

export const PSP_WEBHOOK_PATH = '/psp-webhooks/:route/pix';

export function createPspWebhookApp(deps: Deps): Koa {
  const routes = new Set(deps.config.pixRoutes.map((route) => route.name));
  const router = new Router(ALL_METHODS);
  router.post(PSP_WEBHOOK_PATH, (ctx) => {
    ctx.state.route = `POST ${PSP_WEBHOOK_PATH}`;
    const route = ctx.params.route!;
    if (!routes.has(route)) throw notFound('Rota Pix não configurada');
    if (ctx.request.body === undefined) throw invalidRequest('O corpo deve ser JSON (Content-Type: application/json)');
    const hints = pixHints(ctx.request.body);
    ok(ctx, { received: true });
    deps.log.info({ route, charges: hints.chargeIds.length, transfers: hints.transferIds.length, endToEndIds: hints.endToEndIds.length }, 'PSP webhook');
    actOnHints(deps, route, hints).catch((err: unknown) => deps.log.warn({ err, route }, 'PSP webhook hint not handed on; polling will settle it'));
  });
  const app = new Koa();
  app.use(edge(deps.log));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
