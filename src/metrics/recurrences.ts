// Pix Automático for the operator's dashboard: active recurrences, read from PostgreSQL at scrape time,
// and pix_recurrence_cycles_total{outcome}: a cycle charge counted when it reaches a final status
// (approved, failed, cancelled; through countStatusReached, once, after the commit) and each time its
// debit is asked again after a decline (`retried`, three_in_seven_days; once per route call that succeeded).
import { Counter, Gauge } from 'prom-client';
import type { Sql } from '../db/database.js';
import { registry } from './registry.js';

export const recurrencesActive = new Gauge({
  name: 'pix_recurrences_active',
  help: 'Recurrences (Pix Automático) active: authorized by the payer, cycles being charged; read from PostgreSQL at scrape time',
  registers: [registry],
});

const cyclesReached = new Counter({
  name: 'pix_recurrence_cycles_total',
  help: 'Cycle charges of recurrences by outcome: approved, failed or cancelled when final; retried at each new debit attempt after a decline',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function countCycleOutcome(outcome: 'approved' | 'failed' | 'cancelled' | 'retried'): void {
  cyclesReached.inc({ outcome });
}

export async function refreshRecurrenceGauge(sql: Sql): Promise<void> {
  const [row] = await sql<{ active: number }[]>`select count(*)::int as active from recurrences where status = 'active'`;
  recurrencesActive.set(row!.active);
}
