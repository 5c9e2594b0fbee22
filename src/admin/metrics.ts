// GET /metrics in the Prometheus text format: the engine's registry, the PSP hint and suspense gauges and
// each kind's (src/kinds) read from PostgreSQL now, and the Temporal worker's own metrics. Served without a token on the admin port
// (DESIGN: the admin port is private) and, for a worker-only process, on METRICS_PORT.
import type { Server } from 'node:http';
import Koa from 'koa';
import type { Deps } from '../runtime/deps.js';
import { edge } from '../http/edge.js';
import { ApiError } from '../http/errors.js';
import { createHttpServer } from '../http/server.js';
import { KINDS } from '../kinds/index.js';
import { pspHintGauges } from '../metrics/psp-hints.js';
import { registry } from '../metrics/registry.js';
import type { ScrapedGauges } from '../metrics/scraped.js';
import { suspenseGauge } from '../metrics/suspense.js';
import { temporalMetricsText } from '../metrics/temporal.js';

export const METRICS_PATH = '/metrics';

/** The gauges read at each scrape: the engine's, and each kind's. */
const SCRAPED: ScrapedGauges[] = [pspHintGauges, suspenseGauge, ...KINDS.flatMap((kind) => kind.gauges)];

/** Unknown, not zero, when PostgreSQL cannot say: an alert must not read a database outage as "none". */
async function refreshFromDatabase(deps: Pick<Deps, 'sql' | 'log'>, { what, refresh, gauges }: ScrapedGauges): Promise<void> {
  try {
    await refresh(deps.sql);
  } catch (err) {
    for (const gauge of gauges) gauge.set(Number.NaN);
    deps.log.warn({ err }, `metrics: ${what} not read from PostgreSQL`);
  }
}

async function scrape(deps: Pick<Deps, 'sql' | 'log'>): Promise<string> {
  await Promise.all(SCRAPED.map((gauges) => refreshFromDatabase(deps, gauges)));
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
