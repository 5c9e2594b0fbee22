// The PSP webhook listener's app: `POST /psp-webhooks/{route}/pix` (PSPs append `/pix` to the URL the
// engine registered), and Pix Automático's `/rec` and `/cobr`. A configured bcb-api-pix route, a JSON body: the names it carries are stored in
// PostgreSQL (hints.ts) and only then answered 200, logged in one line of counts, and handed to this
// process's hint processor (hint-processor.ts), which wakes their workflows. A PostgreSQL that cannot
// store them makes the answer an error, which the PSP repeats. Unknown route → 404, a body that is not
// JSON → 400, a sender certificate the route does not accept → 403 (sender.ts), with the service's
// envelope and request log (src/http/edge.ts). The body is never logged: it names payers.
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../runtime/deps.js';
import { edge, jsonBody, ok } from '../http/edge.js';
import { invalidRequest, notFound } from '../http/errors.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { cobrHints, pixHints, recHints, recordHints, type PixHints } from './hints.js';
import { senderCheck } from './sender.js';

export const PSP_WEBHOOK_PATH = '/psp-webhooks/:route/pix';
/** Pix Automático: the PSP appends `/rec` (webhookrec) and `/cobr` (webhookcobr) to the same URL. */
const WEBHOOK_BODIES: Record<string, (body: unknown) => PixHints> = { pix: pixHints, rec: recHints, cobr: cobrHints };

/** `hintsStored` is called after a body's names were stored (the hint processor's wake). */
export function createPspWebhookApp(deps: Deps, hintsStored: () => void): Koa {
  const routes = new Set(deps.config.pixRoutes.map((route) => route.name));
  const checkSender = senderCheck(deps.config.pixRoutes);
  const router = new Router(ALL_METHODS);
  for (const [kind, hintsOf] of Object.entries(WEBHOOK_BODIES)) {
    const path = `/psp-webhooks/:route/${kind}`;
    router.post(path, async (ctx) => {
      ctx.state.route = `POST ${path}`;
      const route = ctx.params.route!;
      if (!routes.has(route)) throw notFound('Rota Pix não configurada');
      checkSender(ctx, route);
      if (ctx.request.body === undefined) throw invalidRequest('O corpo deve ser JSON (Content-Type: application/json)');
      const hints = hintsOf(ctx.request.body);
      const stored = await recordHints(deps.sql, route, hints);
      ok(ctx, { received: true });
      deps.log.info(
        {
          route,
          kind,
          charges: hints.chargeIds.length,
          transfers: hints.transferIds.length,
          endToEndIds: hints.endToEndIds.length,
          recurrences: hints.recurrenceRefs?.length ?? 0,
          ignored: hints.ignored,
        },
        'PSP webhook',
      );
      if (stored) hintsStored();
    });
  }
  const app = new Koa();
  app.use(edge(deps.log));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
