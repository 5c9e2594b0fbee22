// The checks in front of every route of the table, in this order:
//
//   public route (permission null): per-IP protection only (public-limit.ts, 429), no key involved.
//   guarded route:
//     1. 401 invalid_api_key      header missing, not `Bearer`, malformed, unknown or revoked key
//     2. 403 ip_not_allowed       the key has an allow-list and the caller's IP is not in it
//     3. 403 account_unavailable  the key's account is blocked
//     4. 403 permission_denied    the key lacks the route's permission (the message names it)
//     5. 403 kyc_required         financial route and the account's identity check is not approved
//     6. 429 rate_limit_exceeded  the key's 100-per-60-s window is spent
//
// Only a request that passes 1–5 counts against the key's quota, and from step 6 on every answer
// (success or error) carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. The IP is
// checked before the account so that a caller outside the allow-list learns nothing about it.
// The caller's IP is the socket address, or the leftmost X-Forwarded-For when TRUST_PROXY=true
// (the API app is created with Koa's `proxy` set from that setting, which is what `ctx.ip` reads).
import type Koa from 'koa';
import type { Deps } from '../deps.js';
import { authenticateRequest, authorize } from './auth.js';
import { publicLimiter } from './public-limit.js';
import { consumeQuota, rateLimitHeaders } from './rate-limit.js';
import type { RouteSpec } from './routes.js';

export function guard(route: RouteSpec, deps: Deps): Koa.Middleware {
  if (route.permission === null) {
    const limiter = publicLimiter(deps);
    return async (ctx, next) => {
      limiter.take(ctx.ip);
      return next();
    };
  }
  const requirement = { permission: route.permission, financial: route.financial };
  return async (ctx, next) => {
    const caller = await authenticateRequest(deps, { authorization: ctx.get('authorization') || undefined, ip: ctx.ip });
    authorize(caller, requirement);
    const quota = await consumeQuota(deps, caller.keyId);
    ctx.set(rateLimitHeaders(quota));
    ctx.state.caller = caller;
    return next();
  };
}
