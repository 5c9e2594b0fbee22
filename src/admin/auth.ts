// The admin port's secrets, compared in constant time: ADMIN_TOKEN as a bearer token, and the embedded
// Web UI's codec path (routes/codec.ts).
import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { ApiError } from '../http/errors.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A check of a presented secret against `expected`; with `expected` null nothing passes. */
export function secretCheck(expected: string | null): (given: string | null) => void {
  const wanted = expected === null ? null : digest(expected);
  return (given) => {
    if (wanted === null || given === null || !timingSafeEqual(digest(given), wanted)) {
      throw new ApiError(401, 'unauthorized', 'Token de administração ausente ou inválido');
    }
  };
}

/** Constant-time token check; with no ADMIN_TOKEN configured every request is refused. */
export function adminAuth(token: string | null): Koa.Middleware {
  const check = secretCheck(token);
  return async (ctx, next) => {
    check(/^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1] ?? null);
    return next();
  };
}
