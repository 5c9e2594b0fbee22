// Reconciliation's gauges, read at scrape time: the open items by route and kind (a partial index holds
// them), and when each route's last completed run ended. A route or kind with nothing open has no series.
import type { Sql } from '../db/database.js';
import { reconciliationItemsOpen, reconciliationLastSuccess } from '../metrics/registry.js';
import type { ScrapedGauges } from '../metrics/scraped.js';

export async function refreshReconciliationGauges(sql: Sql): Promise<void> {
  const [open, completed] = await Promise.all([
    sql<{ route: string; kind: string; open: number }[]>`
      select route, kind, count(*)::int as open from reconciliation_items where status = 'open' group by route, kind`,
    sql<{ route: string; at: number }[]>`
      select route, extract(epoch from max(completed_at))::float8 as at from reconciliation_runs where status = 'completed' group by route`,
  ]);
  reconciliationItemsOpen.reset();
  for (const row of open) reconciliationItemsOpen.set({ route: row.route, kind: row.kind }, row.open);
  reconciliationLastSuccess.reset();
  for (const row of completed) reconciliationLastSuccess.set({ route: row.route }, row.at);
}

export const reconciliationGauges: ScrapedGauges = {
  what: 'reconciliation gauges',
  refresh: refreshReconciliationGauges,
  gauges: [reconciliationItemsOpen, reconciliationLastSuccess],
};
