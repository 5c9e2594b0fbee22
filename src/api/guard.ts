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
// Creation routes (`joinsBoundKey`) treat 3 and 5 differently: a request whose idempotency key is
// already bound to an operation joins that operation and learns its outcome even when the account
// could not start a new one now; the creation's bound-key gate (creation-route.ts) decides once the
// body is read, before the body is validated (until then any refusal of the request is the
// account's 403, as on other routes).
//
// Only a request that passes 1–5 counts against the key's quota, and from step 6 on every answer
// (success or error) carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. The IP is
// checked before the account so that a caller outside the allow-list learns nothing about it.
// The caller's IP is the socket address, or the leftmost X-Forwarded-For when TRUST_PROXY=true
// (the API app is created with Koa's `proxy` set from that setting, which is what `ctx.ip` reads).
import type Koa from 'koa';
import type { Deps } from '../runtime/deps.js';
import { accountUnavailable, kycRequired } from '../domain/refusal.js';
import { identifyCaller, permissionRefusal } from '../routing/auth.js';
import { publicLimiter } from './public-limit.js';
import { takeQuota } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';

export function guard(route: RouteSpec, deps: Deps): Koa.Middleware {
  if (route.permission === null) {
    const limiter = publicLimiter(deps);
    return async (ctx, next) => {
      limiter.take(ctx.ip);
      return next();
    };
  }
  const permission = route.permission;
  return async (ctx, next) => {
    const caller = await identifyCaller(deps, { authorization: ctx.get('authorization') || undefined, ip: ctx.ip });
    const blocked = caller.account.status !== 'active' ? accountUnavailable() : null;
    const denied = permissionRefusal(caller, permission);
    if (blocked && (denied || !route.joinsBoundKey)) throw blocked;
    if (denied) throw denied;
    ctx.state.caller = caller;
    const refusal = blocked ?? (route.financial && caller.account.kycStatus !== 'approved' ? kycRequired() : null);
    if (refusal) {
      if (!route.joinsBoundKey) throw refusal;
      ctx.state.accountRefusal = refusal;
      return next().catch((err: unknown) => {
        throw (ctx.state.accountRefusal as Error | undefined) ?? err;
      });
    }
    await takeQuota(ctx, deps, caller.keyId);
    return next();
  };
}
