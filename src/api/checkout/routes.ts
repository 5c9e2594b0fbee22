// The payer's page, outside /v1 and without authentication; the per-IP protection of the public
// routes applies (src/api/public-limit.ts):
//   GET /pay/{token}          the page (HTML, 200 for a known token whatever its state, else a 404 page)
//   GET /pay/{token}/status   the small JSON of its live status, for polling
//   GET /pay/{token}/events   the same status as server-sent events, one event per change (live.ts); past
//                             CHECKOUT_EVENT_STREAMS_MAX open ones a 503, on which the page's EventSource
//                             gives up and the page polls /status
//   GET /pay/{token}/qr.png   the QR image, while the charge can be paid or the recurrence authorized
// A token names a charge or a recurrence (the page of its authorization): the same routes serve both.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { answerOf, notFound, refusalAnswer } from '../../http/errors.js';
import { unavailable } from '../../domain/refusal.js';
import { publicLimiter } from '../public-limit.js';
import { checkoutHeaders, newNonce } from './headers.js';
import { checkoutPage, messagePage } from './page.js';
import { findCheckoutView } from './repository.js';
import { isCheckoutTokenShape } from '../../domain/checkout-token.js';
import { viewStatus } from './view.js';
import { openStatusStream, statusWatcher } from './live.js';

const HTML = 'text/html; charset=utf-8';
/** Past the cap a stream is refused for this long; the page meanwhile polls. */
const STREAMS_FULL_RETRY_AFTER_S = 60;

const streamsFull = () =>
  refusalAnswer(
    unavailable(
      'Acompanhamento ao vivo indisponível no momento; consulte a situação pela rota /status desta página.',
      STREAMS_FULL_RETRY_AFTER_S,
    ),
  );

function html(ctx: Koa.Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = HTML;
  ctx.body = body;
}

export function checkoutRouter(deps: Deps): Router {
  const router = new Router({ prefix: '/pay' });
  const limiter = publicLimiter(deps);
  const ancestors = deps.config.checkoutFrameAncestors;
  const watcher = statusWatcher(deps);
  const lookUp = (token: string) => (isCheckoutTokenShape(token) ? findCheckoutView(deps.sql, token) : Promise.resolve(null));

  router.get('/:token', async (ctx) => {
    ctx.state.route = 'GET /pay/{token}';
    const nonce = newNonce();
    ctx.set(checkoutHeaders(ancestors, nonce));
    try {
      limiter.take(ctx.ip);
    } catch (err) {
      const refusal = answerOf(err);
      if (!refusal) throw err;
      ctx.set(refusal.headers);
      return html(ctx, refusal.status, messagePage(nonce, 'Muitas tentativas', 'Aguarde um minuto e abra a página de novo.'));
    }
    const view = await lookUp(ctx.params.token!);
    if (!view) {
      return html(ctx, 404, messagePage(nonce, 'Cobrança não encontrada', 'Confira o endereço recebido de quem fez a cobrança.'));
    }
    html(ctx, 200, checkoutPage(view, ctx.params.token!, nonce));
  });

  router.get('/:token/status', async (ctx) => {
    ctx.state.route = 'GET /pay/{token}/status';
    ctx.set(checkoutHeaders(ancestors, null));
    limiter.take(ctx.ip);
    const view = await lookUp(ctx.params.token!);
    if (!view) throw notFound('Cobrança não encontrada');
    ok(ctx, viewStatus(view));
  });

  router.get('/:token/events', async (ctx) => {
    ctx.state.route = 'GET /pay/{token}/events';
    ctx.set(checkoutHeaders(ancestors, null));
    limiter.take(ctx.ip);
    const token = ctx.params.token!;
    const view = await lookUp(token);
    if (!view) throw notFound('Cobrança não encontrada');
    if (watcher.full) throw streamsFull();
    // Not kept alive once the stream ends: a final status, its lifetime or a shutdown closes the connection.
    ctx.set({ 'X-Accel-Buffering': 'no', Connection: 'close', 'Content-Type': 'text/event-stream; charset=utf-8' });
    ctx.status = 200;
    ctx.respond = false;
    openStatusStream(watcher, ctx.res, token, viewStatus(view));
  });

  router.get('/:token/qr.png', async (ctx) => {
    ctx.state.route = 'GET /pay/{token}/qr.png';
    ctx.set(checkoutHeaders(ancestors, null));
    limiter.take(ctx.ip);
    const view = await lookUp(ctx.params.token!);
    if (!view?.qrPngBase64 || view.state !== 'pending') throw notFound('QR code não encontrado');
    ctx.type = 'image/png';
    ctx.body = Buffer.from(view.qrPngBase64, 'base64');
  });

  return router;
}
