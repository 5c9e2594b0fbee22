// A known path asked with a method it does not serve: 405 with `Allow` listing the path's methods
// (RFC 9110 §15.5.6), in the error envelope. @koa/router's `allowedMethods()` finds the methods of the
// paths every router of the app matched and sets the status and `Allow`; this turns its bare answer
// into the envelope. The routers are built with every method Node parses (`METHODS`) as implemented,
// so an unusual one (TRACE, PROPFIND…) on a known path is a 405 too rather than a 501. allowedMethods'
// own `throw` mode is not used: its `methodNotAllowed()` factory is given neither the context nor the
// path's methods, so the error it makes could not carry `Allow`.
import { METHODS } from 'node:http';
import type Koa from 'koa';
import type Router from '@koa/router';
import { ApiError } from './errors.js';

/** Router options that make every parsed method a candidate for 405 instead of 501. */
export const ALL_METHODS = { methods: METHODS };

/** Goes after the app's routers: answers 405 for a matched path whose methods exclude the request's. */
export function methodNotAllowed(router: Router): Koa.Middleware {
  const allowed = router.allowedMethods() as Koa.Middleware;
  return async (ctx, next) => {
    await allowed(ctx, next);
    if (ctx.status === 405 && ctx.body === undefined) {
      const allow = ctx.response.get('Allow');
      throw new ApiError(405, 'method_not_allowed', `Método ${ctx.method} não permitido neste endereço; use ${allow}`, { Allow: allow });
    }
  };
}
