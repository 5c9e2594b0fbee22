// A run's row through its life: opened (running) by its workflow's first step, or by the admin API
// before it starts the workflow; completed with its counts, taken from the records it read; or failed.
// Each step is idempotent: a retried one finds the row as the first attempt left it.
import type { Sql } from '../db/database.js';
import { findRun, type RunRow } from './repository.js';

export interface RunWindow {
  id: string;
  route: string;
  from: Date;
  to: Date;
}

export async function openRun(sql: Sql, run: RunWindow): Promise<RunRow> {
  await sql`
    insert into reconciliation_runs (id, route, window_from, window_to)
    values (${run.id}, ${run.route}, ${run.from}, ${run.to})
    on conflict (id) do nothing`;
  return (await findRun(sql, run.id))!;
}

export async function runWindow(sql: Sql, runId: string): Promise<RunWindow> {
  const [run] = await sql<RunWindow[]>`
    select id, route, window_from as "from", window_to as "to" from reconciliation_runs where id = ${runId}`;
  if (!run) throw new Error(`reconciliation run ${runId} not found`);
  return run;
}

/**
 * Counts what the run read in its window (every PSP record agrees with the engine or is the subject of
 * one item), keeps the items it found, and lets its working set go, in one PostgreSQL transaction.
 */
export async function completeRun(sql: Sql, runId: string): Promise<RunRow> {
  await sql.begin(async (tx) => {
    const [running] = await tx`select 1 from reconciliation_runs where id = ${runId} and status = 'running' for update`;
    if (!running) return;
    await tx`
      insert into reconciliation_run_items (run_id, item_id)
      select distinct run_id, item_id from reconciliation_records where run_id = ${runId} and in_window and item_id is not null
      on conflict do nothing`;
    await tx`
      update reconciliation_runs r
      set status = 'completed', completed_at = now(),
          psp_received = c.received, psp_sent = c.sent, psp_refunds = c.refunds, matched = c.matched
      from (
        select count(*) filter (where record_type = 'received') as received,
               count(*) filter (where record_type = 'sent') as sent,
               count(*) filter (where record_type = 'refund') as refunds,
               count(*) filter (where item_id is null) as matched
        from reconciliation_records where run_id = ${runId} and in_window
      ) c
      where r.id = ${runId}`;
    await tx`delete from reconciliation_records where run_id = ${runId}`;
  });
  return (await findRun(sql, runId))!;
}

export async function failRun(sql: Sql, runId: string, failure: string): Promise<RunRow> {
  await sql.begin(async (tx) => {
    const [failed] = await tx`
      update reconciliation_runs set status = 'failed', failure = ${failure.slice(0, 1000)}, completed_at = now()
      where id = ${runId} and status = 'running'
      returning 1`;
    if (failed) await tx`delete from reconciliation_records where run_id = ${runId}`;
  });
  return (await findRun(sql, runId))!;
}
