// Liveness and readiness, outside /v1 and without authentication.
import Router from '@koa/router';
import { TIMED_OUT, within } from '../async/within.js';
import { pingDatabase } from '../db/database.js';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { ApiError } from '../http/errors.js';

async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  try {
    return (await within(check(), timeoutMs)) !== TIMED_OUT;
  } catch {
    return false;
  }
}

export function healthRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.state.route = 'GET /healthz';
    ok(ctx, { status: 'ok' });
  });
  router.get('/readyz', async (ctx) => {
    ctx.state.route = 'GET /readyz';
    const [postgres, temporal] = await Promise.all([
      probe(() => pingDatabase(deps.sql), 2000),
      probe(() => deps.temporal.workflowService.getSystemInfo({}), 2000),
    ]);
    const checks = { postgres: postgres ? 'ok' : 'unavailable', temporal: temporal ? 'ok' : 'unavailable' };
    if (!postgres || !temporal) {
      throw new ApiError(503, 'internal_error', 'Serviço indisponível no momento', {}, { checks });
    }
    ok(ctx, { status: 'ready', checks });
  });
  return router;
}
