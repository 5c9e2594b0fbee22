// Pix Automático for the operator's dashboard: active recurrences, read from PostgreSQL at scrape time.
// Their cycle charges are counted with the transactions (pix_recurrence_cycles_total, src/metrics/transactions.ts).
import { Gauge } from 'prom-client';
import type { Sql } from '../db/database.js';
import { registry } from '../metrics/registry.js';
import type { ScrapedGauges } from '../metrics/scraped.js';

export const recurrencesActive = new Gauge({
  name: 'pix_recurrences_active',
  help: 'Recurrences (Pix Automático) active: authorized by the payer, cycles being charged; read from PostgreSQL at scrape time',
  registers: [registry],
});

export async function refreshRecurrenceGauge(sql: Sql): Promise<void> {
  const [row] = await sql<{ active: number }[]>`select count(*)::int as active from recurrences where status = 'active'`;
  recurrencesActive.set(row!.active);
}

export const recurrenceGauge: ScrapedGauges = { what: 'recurrence gauge', refresh: refreshRecurrenceGauge, gauges: [recurrencesActive] };
