// Gauges read from PostgreSQL at each scrape of /metrics (src/admin/metrics.ts): the query that sets them,
// and what they are, for the warning and the NaN they get when PostgreSQL cannot say.
import type { Gauge } from 'prom-client';
import type { Sql } from '../db/database.js';

export interface ScrapedGauges {
  /** As the warning names them: `metrics: <what> not read from PostgreSQL`. */
  what: string;
  refresh: (sql: Sql) => Promise<void>;
  gauges: Gauge[];
}
