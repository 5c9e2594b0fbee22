// GET /metrics in the Prometheus text format: the engine's registry, the MED gauges read from
// PostgreSQL now, and the Temporal worker's own metrics. Served without a token on the admin port
// (DESIGN: the admin port is private) and, for a worker-only process, on METRICS_PORT.
import type { Server } from 'node:http';
import Koa from 'koa';
import type { Deps } from '../runtime/deps.js';
import { edge } from '../http/edge.js';
import { ApiError } from '../http/errors.js';
import { createHttpServer } from '../http/server.js';
import { refreshMedGauges } from '../metrics/meds.js';
import { medsOpen, medsOverdue, registry } from '../metrics/registry.js';
import { temporalMetricsText } from '../metrics/temporal.js';

export const METRICS_PATH = '/metrics';

async function scrape(deps: Pick<Deps, 'sql' | 'log'>): Promise<string> {
  try {
    await refreshMedGauges(deps.sql);
  } catch (err) {
    // Unknown, not zero: an alert on overdue MEDs must not read a database outage as "none".
    medsOpen.set(Number.NaN);
    medsOverdue.set(Number.NaN);
    deps.log.warn({ err }, 'metrics: MED gauges not read from PostgreSQL');
  }
  const [own, temporal] = await Promise.all([registry.metrics(), temporalMetricsText()]);
  return temporal ? `${own.trimEnd()}\n${temporal}` : own;
}

/** Answers /metrics before any token check of the app it is mounted in. */
export function metricsEndpoint(deps: Pick<Deps, 'sql' | 'log'>): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) return next();
    ctx.state.route = `${ctx.method} ${METRICS_PATH}`;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new ApiError(405, 'method_not_allowed', `Método ${ctx.method} não permitido neste endereço; use GET`, { Allow: 'GET, HEAD' });
    }
    ctx.body = await scrape(deps);
    ctx.type = registry.contentType;
  };
}

/** A server with /metrics only (unknown paths 404 in the service's envelope), for a process without an admin port. */
export function createMetricsServer(deps: Pick<Deps, 'sql' | 'log' | 'config'>): Server {
  const app = new Koa();
  app.use(edge(deps.log));
  app.use(metricsEndpoint(deps));
  return createHttpServer(app, deps.log, deps.config.listener);
}
