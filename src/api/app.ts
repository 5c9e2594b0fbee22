// The public API: /healthz, /readyz and every route of the table under /v1.
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../runtime/deps.js';
import { edge, jsonBody } from '../http/edge.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { healthRouter } from './health.js';
import { boundKeyGate } from '../routing/creation-route.js';
import { guard } from './guard.js';
import { ROUTES } from './routes/index.js';
import { validateRequest } from '../routing/validate-request.js';
import { mcpRouter } from '../mcp/http.js';
import { checkoutRouter } from './checkout/routes.js';

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

export function createApiApp(deps: Deps): Koa {
  const app = new Koa({ proxy: deps.config.trustProxy });
  const v1 = new Router({ prefix: '/v1', ...ALL_METHODS });
  const body = jsonBody(deps.config.bodyLimitBytes);
  for (const route of ROUTES) {
    const name = `${route.method} /v1${route.path === '/' ? '' : route.path}`;
    // '/' under the prefix answers both /v1 and /v1/ (an empty path breaks @koa/router 15's matching).
    v1.register(
      route.path,
      [route.method],
      [
        async (ctx, next) => {
          ctx.state.route = name;
          return next();
        },
        guard(route, deps),
        // After the guard: a request without a valid key is a 401 whatever its body.
        body,
        ...(route.joinsBoundKey ? [boundKeyGate(route.joinsBoundKey, deps)] : []),
        validateRequest(route, deps),
        (ctx) => route.handler(ctx, deps),
      ],
    );
  }
  // What reaches Koa after the edge answered: a client that went away mid-answer (a payer's page closed
  // during its event stream) is not the engine's error; anything else is logged, not printed to stderr.
  app.on('error', (err: Error & { code?: string; status?: number; expose?: boolean }) => {
    if (err.status === 404 || err.expose || CLIENT_GONE.has(err.code ?? '')) return;
    deps.log.error({ err }, 'response error');
  });
  const health = healthRouter(deps);
  app.use(edge(deps.log));
  app.use(health.routes());
  // The read-only MCP server (Streamable HTTP) at /mcp, outside /v1; same keys, permissions and quota.
  app.use(mcpRouter(deps, ROUTES, body).routes());
  // The payer's page at /pay/{token}, outside /v1 (src/api/checkout/routes.ts).
  app.use(checkoutRouter(deps).routes());
  app.use(v1.routes());
  // Last: a path some router above matched, asked with a method none of them serves.
  app.use(methodNotAllowed(v1));
  return app;
}
