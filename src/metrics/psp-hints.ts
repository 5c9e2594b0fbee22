// The PSP webhook hints not yet acted on (psp_hints, migration 120), read at scrape time: the backlog,
// and how long its oldest hint has waited. The pending rows are few and a partial index holds them.
import type { Sql } from '../db/database.js';
import { pspHintsOldestAge, pspHintsPending } from './registry.js';
import type { ScrapedGauges } from './scraped.js';

export async function refreshPspHintGauges(sql: Sql): Promise<void> {
  const [row] = await sql<{ pending: number; oldest: number }[]>`
    select count(*)::int as pending, coalesce(extract(epoch from now() - min(received_at)), 0)::float8 as oldest
    from psp_hints where signalled_at is null`;
  pspHintsPending.set(row!.pending);
  pspHintsOldestAge.set(row!.oldest);
}

export const pspHintGauges: ScrapedGauges = {
  what: 'PSP hint gauges',
  refresh: refreshPspHintGauges,
  gauges: [pspHintsPending, pspHintsOldestAge],
};
