// Due-date charges waiting to be paid, read at scrape time: pending, and overdue (pending past their due
// date, a calendar day in America/Sao_Paulo, still payable with fine and interest until their validity ends).
import { Gauge } from 'prom-client';
import type { Sql } from '../../db/database.js';
import { saoPauloDate } from '../../../contracts/calendar.js';
import { registry } from '../../metrics/registry.js';
import type { ScrapedGauges } from '../../metrics/scraped.js';

export const dueDatePending = new Gauge({
  name: 'pix_due_date_charges_pending',
  help: 'Due-date charges pending (not yet paid, cancelled or expired), read from PostgreSQL at scrape time',
  registers: [registry],
});

export const dueDateOverdue = new Gauge({
  name: 'pix_due_date_charges_overdue',
  help: 'Pending due-date charges past their due date (America/Sao_Paulo), read from PostgreSQL at scrape time',
  registers: [registry],
});

export async function refreshDueDateGauges(sql: Sql): Promise<void> {
  const [row] = await sql<{ pending: number; overdue: number }[]>`
    select count(*)::int as pending,
           (count(*) filter (where due_date < ${saoPauloDate(new Date())}::date))::int as overdue
    from transactions where status = 'pending' and due_date is not null`;
  dueDatePending.set(row!.pending);
  dueDateOverdue.set(row!.overdue);
}

export const dueDateGauges: ScrapedGauges = {
  what: 'due-date charge gauges',
  refresh: refreshDueDateGauges,
  gauges: [dueDatePending, dueDateOverdue],
};
