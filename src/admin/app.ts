// The admin API for operators (the spec's "account administration"), on its own port, behind ADMIN_TOKEN:
// the admin route table (routes/index.ts), each request validated against its route's schemas.
import Koa from 'koa';
import Router from '@koa/router';
import { validateRequest } from '../routing/validate-request.js';
import type { Deps } from '../runtime/deps.js';
import { edge, jsonBody } from '../http/edge.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { metricsEndpoint } from './metrics.js';
import { adminAuth } from './auth.js';
import { codecEndpoint, codecLoggedPath, type CodecEndpointOptions } from './routes/codec.js';
import { ADMIN_ROUTES } from './routes/index.js';

export function createAdminApp(deps: Deps, codec: Omit<CodecEndpointOptions, 'auth'>): Koa {
  const app = new Koa();
  const router = new Router({ prefix: '/admin', ...ALL_METHODS });
  for (const route of ADMIN_ROUTES) {
    router.register(
      route.path,
      [route.method],
      [
        async (ctx, next) => {
          ctx.state.route = `${route.method} /admin${route.path}`;
          return next();
        },
        validateRequest(route, deps),
        (ctx) => route.handler(ctx, deps),
      ],
    );
  }
  const auth = adminAuth(deps.config.adminToken);
  app.use(edge(deps.log, codecLoggedPath(codec.uiSecret)));
  // GET /metrics without the token (DESIGN: the admin port is private; Prometheus scrapes it).
  app.use(metricsEndpoint(deps));
  // Before the token check: a browser's CORS preflight carries no token, and the embedded UI has its own path.
  app.use(codecEndpoint(deps, { ...codec, auth }));
  app.use(auth);
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
