// The admin API for operators (the spec's "account administration"), on its own port, behind ADMIN_TOKEN.
import { createHash, timingSafeEqual } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../deps.js';
import { edge, jsonBody } from '../http/edge.js';
import { ApiError } from '../http/errors.js';
import { ALL_METHODS, methodNotAllowed } from '../http/method-not-allowed.js';
import { ADMIN_ROUTES } from './routes/index.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time token check; with no ADMIN_TOKEN configured every request is refused. */
export function adminAuth(token: string | null): Koa.Middleware {
  const expected = token === null ? null : digest(token);
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    const match = /^Bearer (.+)$/i.exec(header);
    if (expected === null || !match || !timingSafeEqual(digest(match[1]!), expected)) {
      throw new ApiError(401, 'unauthorized', 'Token de administração ausente ou inválido');
    }
    return next();
  };
}

export function createAdminApp(deps: Deps): Koa {
  const app = new Koa();
  const router = new Router({ prefix: '/admin', ...ALL_METHODS });
  for (const route of ADMIN_ROUTES) {
    router.register(route.path, [route.method], [
      async (ctx, next) => {
        ctx.state.route = `${route.method} /admin${route.path}`;
        return next();
      },
      (ctx) => route.handler(ctx, deps),
    ]);
  }
  app.use(edge(deps.log));
  app.use(adminAuth(deps.config.adminToken));
  app.use(jsonBody(deps.config.bodyLimitBytes));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  return app;
}
