// The request quota of an API key: 100 requests per 60-second window that starts at the key's first
// call. The counter is one PostgreSQL row per key, moved by a single upsert, so every API process
// (and the MCP server) shares one budget. Independent of Koa.
import type Koa from 'koa';
import type { Deps } from '../runtime/deps.js';
import { ApiError } from '../http/errors.js';
import { rateLimitRefusals } from '../metrics/registry.js';

export const KEY_QUOTA_LIMIT = 100;
export const KEY_QUOTA_WINDOW_SECONDS = 60;

export interface Quota {
  limit: number;
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

export function rateLimitHeaders(quota: Quota): Record<string, string> {
  return {
    'RateLimit-Limit': String(quota.limit),
    'RateLimit-Remaining': String(quota.remaining),
    'RateLimit-Reset': String(quota.resetSeconds),
  };
}

/** The spec's 429: `code` and `retryAfter` also at the top level of the body, `Retry-After` header. */
export function rateLimitExceeded(quota: Quota, message: string): ApiError {
  return new ApiError(
    429,
    'rate_limit_exceeded',
    message,
    { ...rateLimitHeaders(quota), 'Retry-After': String(quota.resetSeconds) },
    { code: 'rate_limit_exceeded', retryAfter: quota.resetSeconds },
  );
}

/**
 * Counts one request against the key's window (starting a new window when there is none or it has
 * ended) and returns what is left; throws the 429 when the window's budget is spent.
 */
export async function consumeQuota(deps: Pick<Deps, 'sql'>, keyId: string): Promise<Quota> {
  const window = `${KEY_QUOTA_WINDOW_SECONDS} seconds`;
  const [row] = await deps.sql<{ count: number; reset: string }[]>`
    insert into rate_limit_windows as w (key_id, window_start, count) values (${keyId}, now(), 1)
    on conflict (key_id) do update set
      window_start = case when w.window_start + ${window}::interval <= now() then now() else w.window_start end,
      count = case when w.window_start + ${window}::interval <= now() then 1 else w.count + 1 end
    returning count, extract(epoch from w.window_start + ${window}::interval - now()) as reset`;
  const quota: Quota = {
    limit: KEY_QUOTA_LIMIT,
    remaining: Math.max(0, KEY_QUOTA_LIMIT - row!.count),
    resetSeconds: Math.max(1, Math.ceil(Number(row!.reset))),
  };
  if (row!.count > KEY_QUOTA_LIMIT) {
    rateLimitRefusals.inc({ limit: 'api_key' });
    throw rateLimitExceeded(
      quota,
      `Limite de ${KEY_QUOTA_LIMIT} requisições por ${KEY_QUOTA_WINDOW_SECONDS} segundos excedido para esta chave; tente novamente em ${quota.resetSeconds} s`,
    );
  }
  return quota;
}

/** Counts the request against the key's quota (429 when spent) and sets the RateLimit headers. */
export async function takeQuota(ctx: Koa.Context, deps: Pick<Deps, 'sql'>, keyId: string): Promise<void> {
  ctx.set(rateLimitHeaders(await consumeQuota(deps, keyId)));
}
