// GET /admin/ledger/check: the ledger's invariants over the whole database, for operators and monitors.
// A violation is not an error of the request: the answer is 200 with `ok: false` and the violations.
import type Koa from 'koa';
import type { Deps } from '../../deps.js';
import { ok } from '../../http/edge.js';
import { ledgerReport } from '../../ledger/check.js';
import type { AdminRoute } from './index.js';

async function check(ctx: Koa.Context, deps: Deps) {
  const report = await ledgerReport(deps.sql);
  if (!report.ok) deps.log.error({ alert: 'ledger_violation', violations: report.violations.slice(0, 20), count: report.violations.length }, 'ledger check found violations');
  ok(ctx, report);
}

export const LEDGER_ROUTES: AdminRoute[] = [{ method: 'GET', path: '/ledger/check', handler: check }];
