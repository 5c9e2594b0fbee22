// A day of a busy route, reconciled (issue 27's target: 1,000,000 records in under 10 minutes and
// 300 MB). Seeds a fresh database with N records of one day on the simulator route (BENCH_ROWS, default
// 1,000,000): six in seven Pix that paid charges (the network's paid simulator_charges and the engine's
// approved charges, the same Pix), one in seven envios (simulator_transfers and approved transfers), one
// in 10,000 Pix no charge asked for and one in 10,000 paid charges the network does not list.
// By default it runs the run's steps in this process, as the worker's activities do (the workflow only
// orders them): the received pass, the sent pass, missing_at_psp, completion; and prints each step's
// time, the process's peak RSS, and the run's counts. With BENCH_LIVE=1 it starts the engine as its own
// process (`src/main.ts all`, its embedded Temporal dev server), seeds its database, asks it for the run
// (POST /admin/reconciliations) and waits for the workflow to complete it, sampling the engine process's
// RSS (its Temporal dev server, a child process, not counted) from /proc every 100 ms. The engine gets the Node
// options `npm start` gives it (scripts/launch.sh), then BENCH_ENGINE_NODE_ARGS (`--heap-growing-percent=0`: V8's default).
import { readFileSync } from 'node:fs';
import { connect } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { loadConfig } from '../src/config/config.js';
import { routeRecords } from '../src/pix-routes/registry.js';
import { reconcileMissing } from '../src/reconciliation/missing.js';
import { reconcileReceived, reconcileSent } from '../src/reconciliation/pass.js';
import { completeRun, openRun } from '../src/reconciliation/runs.js';
import { createLogger } from '../src/runtime/log.js';
import type { Deps } from '../src/runtime/deps.js';
import { startEngine } from './engine.js';

const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const TARGET_SECONDS = 600;
const TARGET_MB = 300;
const DAY = { from: new Date('2026-11-25T03:00:00Z'), to: new Date('2026-11-26T03:00:00Z') };

async function seed(sql: ReturnType<typeof connect>): Promise<void> {
  await sql`insert into accounts (id, name, document, email, kyc_status) values ('acc_bench', 'Loja', '11222333000181', 'l@example.com', 'approved')`;
  await sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`;
    // g spreads the rows over the day; a row is an envio when g % 7 = 0.
    await tx`
      create temporary table seed on commit drop as
      select g, g % 7 = 0 as envio, 100 + (g::bigint * 7919) % 100000 as amount,
             ${DAY.from}::timestamptz + (g - 1) * (interval '1 day' / ${ROWS}) as at,
             lpad(to_hex(g), 24, '0') as hex
        from generate_series(1, ${ROWS}) g`;
    await tx`
      insert into simulator_charges (txid, transaction_id, amount, br_code, qr_code_base64, status, expires_at, payer, paid_at, end_to_end_id, created_at)
      select 'tx' || hex, 'txn_' || hex, amount, 'bench', 'bench', 'paid', at + interval '15 minutes',
             '{"name":"Maria","document":"52998224725"}'::jsonb, at, 'E' || hex, at
        from seed where not envio and g % 10000 <> 1`;
    await tx`
      insert into transactions (id, account_id, external_id, direction, type, method, status, processing_state, acquirer, amount, fee,
                                net_amount, fingerprint, payer, processor_ref, end_to_end_id, expires_at, approved_at, created_at, updated_at)
      select 'txn_' || hex, 'acc_bench', 'c' || g, 'in', 'payment', 'pix', 'approved', 'completed', 'simulator', amount, 0, amount, 'bench',
             '{"name":"Maria","document":"52998224725"}'::jsonb, 'tx' || hex, 'E' || hex, at + interval '15 minutes', at, at, at
        from seed where not envio`;
    await tx`
      insert into simulator_transfers (end_to_end_id, transaction_id, amount, destination, status, created_at, settled_at)
      select 'S' || hex, 'out_' || hex, amount, '{"type":"pix_key","value":"a@example.com"}'::jsonb, 'approved', at, at
        from seed where envio`;
    await tx`
      insert into transactions (id, account_id, external_id, direction, type, method, status, processing_state, acquirer, amount, fee,
                                net_amount, debited_amount, recipient_amount, fingerprint, payer, processor_ref, expires_at, approved_at,
                                created_at, updated_at)
      select 'out_' || hex, 'acc_bench', 't' || g, 'out', 'withdrawal', 'pix', 'approved', 'completed', 'simulator', amount, 0, amount,
             amount, amount, 'bench', '{"name":"Loja","document":"11222333000181"}'::jsonb, 'S' || hex, at + interval '15 minutes', at, at, at
        from seed where envio`;
    await tx`
      insert into simulator_received_pix (end_to_end_id, txid, amount, payer, received_at)
      select 'U' || hex, null, amount, '{"name":"Fulano","document":"52998224725"}'::jsonb, at from seed where g % 10000 = 5000`;
  });
  await sql`analyze`;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

async function inProcess() {
  const database = `pix_bench_reconcile_${Date.now()}`;
  const admin = connect(`${PG}/postgres`, { max: 1 });
  await admin.unsafe(`create database ${database}`);
  const sql = connect(`${PG}/${database}`, { max: 10 });
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  try {
    await migrate(sql);
    const seeding = Date.now();
    await seed(sql);
    process.stdout.write(`seeded ${ROWS} records in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
    const config = loadConfig({ DATABASE_URL: `${PG}/${database}`, LOG_LEVEL: 'error' });
    // No correction in this day: nothing signals a workflow or dispatches an event, so no Temporal client is needed.
    const deps = { config, log: createLogger('error'), sql, temporal: null } as unknown as Deps;
    const pass = { deps, records: (route: string) => routeRecords(deps, route), progress: () => {} };
    const baseline = process.memoryUsage().rss;
    peakRss = baseline;
    const run = await openRun(sql, { id: 'rcn_bench', route: 'simulator', ...DAY });
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['received', () => reconcileReceived(pass, run.id)],
      ['sent', () => reconcileSent(pass, run.id)],
      ['missing_at_psp', () => reconcileMissing(deps, run.id)],
      ['complete', () => completeRun(sql, run.id)],
    ];
    const started = Date.now();
    for (const [name, step] of steps) {
      const at = Date.now();
      await step();
      process.stdout.write(`${name.padEnd(15)} ${((Date.now() - at) / 1000).toFixed(1)} s\n`);
    }
    const seconds = (Date.now() - started) / 1000;
    const completed = await completeRun(sql, run.id);
    process.stdout.write(
      `total ${seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s), ${(ROWS / seconds).toFixed(0)} records/s, ` +
        `RSS ${mb(baseline)} MB before, peak ${mb(peakRss)} MB (target < ${TARGET_MB} MB)\n` +
        `counts ${JSON.stringify(completed.counts)}\n`,
    );
  } finally {
    clearInterval(sampler);
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

/** The engine process's resident memory, in bytes. */
function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

async function live() {
  process.stdout.write(`engine node options: scripts/launch.sh's, then ${process.env.BENCH_ENGINE_NODE_ARGS?.trim() || 'none'}\n`);
  const engine = await startEngine({ RECONCILE_AT: 'off', LOG_LEVEL: 'error' });
  const sql = connect(engine.databaseUrl, { max: 4 });
  const adminUrl = `http://127.0.0.1:${engine.adminPort}/admin`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { ...engine.adminHeaders, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: { id: string; status: string; counts: unknown } };
    if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json.data;
  };
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(engine.pid))), 100);
  try {
    const seeding = Date.now();
    await seed(sql);
    process.stdout.write(`seeded ${ROWS} records in ${((Date.now() - seeding) / 1000).toFixed(1)} s\n`);
    const baseline = rssOf(engine.pid);
    peakRss = baseline;
    const started = Date.now();
    const { id } = await call('POST', '/reconciliations', { route: 'simulator', from: DAY.from.toISOString(), to: DAY.to.toISOString() });
    let run = await call('GET', `/reconciliations/${id}`);
    while (run.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 500));
      run = await call('GET', `/reconciliations/${id}`);
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `run ${id} ${run.status} through the engine's worker in ${seconds.toFixed(1)} s (target < ${TARGET_SECONDS} s), ` +
        `${(ROWS / seconds).toFixed(0)} records/s; engine process RSS ${mb(baseline)} MB before, peak ${mb(peakRss)} MB ` +
        `(target < ${TARGET_MB} MB)\ncounts ${JSON.stringify(run.counts)}\n`,
    );
  } finally {
    clearInterval(sampler);
    await sql.end({ timeout: 5 });
    await engine.stop();
  }
}

await (process.env.BENCH_LIVE === '1' ? live() : inProcess());
