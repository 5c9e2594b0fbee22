// Open and overdue MEDs, read at scrape time: the open ones are few and the partial unique index on
// open MEDs (meds_one_open_per_transaction) serves the query. Overdue is the deadline passed, so the
// gauge is right even when the worker that flags MEDs overdue is down.
import type { Sql } from '../db/database.js';
import { medsOpen, medsOverdue } from '../metrics/registry.js';
import type { ScrapedGauges } from '../metrics/scraped.js';

export async function refreshMedGauges(sql: Sql): Promise<void> {
  const [row] = await sql<{ open: number; overdue: number }[]>`
    select count(*)::int as open, (count(*) filter (where deadline_at <= now()))::int as overdue
    from meds where status = 'open'`;
  medsOpen.set(row!.open);
  medsOverdue.set(row!.overdue);
}

export const medGauges: ScrapedGauges = { what: 'MED gauges', refresh: refreshMedGauges, gauges: [medsOpen, medsOverdue] };
