// Authentication, permission, identity and rate-limit checks for one route.
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { ApiError } from '../http/errors.js';
import type { RouteSpec } from './routes.js';

export function guard(route: RouteSpec, _deps: Deps): Koa.Middleware {
  return async (_ctx, next) => {
    if (route.permission !== null) throw new ApiError(401, 'invalid_api_key', 'Chave de API ausente ou inválida');
    return next();
  };
}
