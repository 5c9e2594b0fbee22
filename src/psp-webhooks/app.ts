// The PSP webhook listener's app: `POST /psp-webhooks/{route}/pix` (PSPs append `/pix` to the URL the
// engine registered). A configured bcb-api-pix route, a JSON body: 200 at once, and the hints are acted
// on after the answer (hints.ts), then logged in one line of counts. Unknown route → 404, a body that is
// not JSON → 400, a sender certificate the route does not accept → 403 (sender.ts), with the service's
// envelope and request log (src/http/edge.ts). The body is never logged: it names payers.
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../runtime/deps.js';
import { edge, jsonBody, ok } from '../http/edge.js';
import { invalidRequest, notFound } from '../http/errors.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { SignalCoalescer } from './coalescer.js';
import { actOnHints, pixHints } from './hints.js';
import { senderCheck } from './sender.js';

export const PSP_WEBHOOK_PATH = '/psp-webhooks/:route/pix';

export function createPspWebhookApp(deps: Deps): Koa {
  const routes = new Set(deps.config.pixRoutes.map((route) => route.name));
  const checkSender = senderCheck(deps.config.pixRoutes);
  const coalescer = new SignalCoalescer(deps.config.pspWebhookHintIntervalMs, (err, transactionId) =>
    deps.log.warn({ err, transactionId }, 'PSP webhook hint not delivered to the workflow; polling will settle it'),
  );
  const router = new Router(ALL_METHODS);
  router.post(PSP_WEBHOOK_PATH, (ctx) => {
    ctx.state.route = `POST ${PSP_WEBHOOK_PATH}`;
    const route = ctx.params.route!;
    if (!routes.has(route)) throw notFound('Rota Pix não configurada');
    checkSender(ctx, route);
    if (ctx.request.body === undefined) throw invalidRequest('O corpo deve ser JSON (Content-Type: application/json)');
    const hints = pixHints(ctx.request.body);
    ok(ctx, { received: true });
    const named = { route, charges: hints.chargeIds.length, transfers: hints.transferIds.length, endToEndIds: hints.endToEndIds.length, ignored: hints.ignored };
    actOnHints(deps, route, hints, coalescer).then(
      ({ undeliveredError, ...outcome }) =>
        outcome.undelivered > 0
          ? deps.log.warn({ ...named, ...outcome, err: undeliveredError }, 'PSP webhook: some hints not delivered to their workflow; polling will settle them')
          : deps.log.info({ ...named, ...outcome }, 'PSP webhook'),
      (err: unknown) => deps.log.warn({ ...named, err }, 'PSP webhook hint not handed on; polling will settle it'),
    );
  });
  const app = new Koa();
  app.use(edge(deps.log));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
