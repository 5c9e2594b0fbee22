// pix_refunds_total: a refund counted once when it is created (`pending`) and once when it reaches its
// final status, after the change committed, by the code that made it (refunds/lifecycle.ts), which
// changes a status only from `pending` under the row's update, so a retried activity counts nothing.
import { Counter } from 'prom-client';
import { registry } from '../metrics/registry.js';

const refundsReached = new Counter({
  name: 'pix_refunds_total',
  help: 'Refunds (devoluções asked by an operator) that reached a status: pending when created, then approved or failed',
  labelNames: ['status'] as const,
  registers: [registry],
});

export function countRefundStatus(status: 'pending' | 'approved' | 'failed'): void {
  refundsReached.inc({ status });
}
