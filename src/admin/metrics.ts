// GET /metrics in the Prometheus text format: the engine's registry, the MED, PSP hint, reconciliation,
// suspense and due-date charge gauges read from PostgreSQL now, and the Temporal worker's own metrics. Served without a token on the admin port
// (DESIGN: the admin port is private) and, for a worker-only process, on METRICS_PORT.
import type { Server } from 'node:http';
import Koa from 'koa';
import type { Gauge } from 'prom-client';
import type { Deps } from '../runtime/deps.js';
import { edge } from '../http/edge.js';
import { ApiError } from '../http/errors.js';
import { createHttpServer } from '../http/server.js';
import { dueDateOverdue, dueDatePending, refreshDueDateGauges } from '../charges/due-date/metrics.js';
import { recurrencesActive, refreshRecurrenceGauge } from '../recurrences/metrics.js';
import { refreshMedGauges } from '../meds/metrics.js';
import { refreshPspHintGauges } from '../metrics/psp-hints.js';
import { refreshReconciliationGauges } from '../reconciliation/metrics.js';
import {
  medsOpen,
  medsOverdue,
  pspHintsOldestAge,
  pspHintsPending,
  reconciliationItemsOpen,
  reconciliationLastSuccess,
  registry,
} from '../metrics/registry.js';
import { refreshSuspenseGauge, suspenseBalance } from '../metrics/suspense.js';
import { temporalMetricsText } from '../metrics/temporal.js';

export const METRICS_PATH = '/metrics';

/** Unknown, not zero, when PostgreSQL cannot say: an alert must not read a database outage as "none". */
async function refreshFromDatabase(deps: Pick<Deps, 'log'>, what: string, refresh: () => Promise<void>, gauges: Gauge[]): Promise<void> {
  try {
    await refresh();
  } catch (err) {
    for (const gauge of gauges) gauge.set(Number.NaN);
    deps.log.warn({ err }, `metrics: ${what} not read from PostgreSQL`);
  }
}

async function scrape(deps: Pick<Deps, 'sql' | 'log'>): Promise<string> {
  await Promise.all([
    refreshFromDatabase(deps, 'MED gauges', () => refreshMedGauges(deps.sql), [medsOpen, medsOverdue]),
    refreshFromDatabase(deps, 'PSP hint gauges', () => refreshPspHintGauges(deps.sql), [pspHintsPending, pspHintsOldestAge]),
    refreshFromDatabase(deps, 'reconciliation gauges', () => refreshReconciliationGauges(deps.sql), [
      reconciliationItemsOpen,
      reconciliationLastSuccess,
    ]),
    refreshFromDatabase(deps, 'suspense gauge', () => refreshSuspenseGauge(deps.sql), [suspenseBalance]),
    refreshFromDatabase(deps, 'due-date charge gauges', () => refreshDueDateGauges(deps.sql), [dueDatePending, dueDateOverdue]),
    refreshFromDatabase(deps, 'recurrence gauge', () => refreshRecurrenceGauge(deps.sql), [recurrencesActive]),
  ]);
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
