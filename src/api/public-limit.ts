// Per-IP protection of the public routes (/v1, /v1/openapi.json, /v1/llms.txt, /v1/transparency, and the payer's page /pay/{token}…):
// 300 requests per 60-second window per caller IP, counted in the memory of each API process
// (so N processes allow up to N × 300 per IP). It never touches an API key's quota.
import type { Deps } from '../runtime/deps.js';
import { rateLimitRefusals } from '../metrics/registry.js';
import { rateLimitExceeded, type Quota } from '../routing/rate-limit.js';

export const PUBLIC_LIMIT = 300;
export const PUBLIC_WINDOW_MS = 60_000;
/** Bound on the IPs tracked at once, so a flood from many addresses cannot grow memory without end. */
const MAX_TRACKED_IPS = 50_000;

interface Window {
  start: number;
  count: number;
}

/** A fixed window per IP that starts at the IP's first request, like the key quota. */
export class IpWindowLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request from `ip`; throws the 429 when the IP's window is spent. */
  take(ip: string): Quota {
    const now = this.now();
    let window = this.windows.get(ip);
    if (!window || now - window.start >= this.windowMs) {
      if (!window) this.makeRoom(now);
      window = { start: now, count: 0 };
      this.windows.set(ip, window);
    }
    window.count += 1;
    const quota: Quota = {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetSeconds: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
    };
    if (window.count > this.limit) {
      rateLimitRefusals.inc({ limit: 'ip' });
      throw rateLimitExceeded(
        quota,
        `Limite de ${this.limit} requisições por minuto por IP excedido; tente novamente em ${quota.resetSeconds} s`,
      );
    }
    return quota;
  }

  get trackedIps(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    if (this.windows.size < MAX_TRACKED_IPS) return;
    for (const [ip, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(ip);
    }
    // Still full of live windows: forget the oldest-created one.
    if (this.windows.size >= MAX_TRACKED_IPS) this.windows.delete(this.windows.keys().next().value!);
  }
}

const limiters = new WeakMap<Deps, IpWindowLimiter>();

/** The limiter of one API app (one `deps`), shared by all its public routes. */
export function publicLimiter(deps: Deps): IpWindowLimiter {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new IpWindowLimiter(PUBLIC_LIMIT, PUBLIC_WINDOW_MS);
    limiters.set(deps, limiter);
  }
  return limiter;
}
