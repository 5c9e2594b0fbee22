// The money each route's suspense holds (books.md), read at scrape time from the ledger: the suspense
// accounts are platform accounts (no owner), which the owner index finds among a few dozen rows.
import { Gauge } from 'prom-client';
import type { Sql } from '../db/database.js';
import { registry } from './registry.js';
import type { ScrapedGauges } from './scraped.js';

export const suspenseBalance = new Gauge({
  name: 'pix_suspense_balance_cents',
  help: "Centavos held in a route's suspense ledger account (Pix received that belongs to no charge), read from PostgreSQL at scrape time",
  labelNames: ['route'] as const,
  registers: [registry],
});

export async function refreshSuspenseGauge(sql: Sql): Promise<void> {
  // platform:suspense:<route> (ledger/accounts.ts; a route name has no colon).
  const rows = await sql<{ route: string; balance: bigint }[]>`
    select split_part(id, ':', 3) as route, balance from ledger_balances where owner_id is null and kind = 'suspense'`;
  suspenseBalance.reset();
  for (const row of rows) suspenseBalance.set({ route: row.route }, Number(row.balance));
}

export const suspenseGauge: ScrapedGauges = { what: 'suspense gauge', refresh: refreshSuspenseGauge, gauges: [suspenseBalance] };
