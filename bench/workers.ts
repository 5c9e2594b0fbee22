// What a deployment that outgrows one machine must plan for (issue 32): the API and the workers as
// separate processes, one worker then two, and per charge what each process, the Temporal server and
// PostgreSQL spend.
//
//   npm run bench:workers                          (CHARGES=300 per configuration, CONCURRENCY=8)
//   node --import tsx bench/workers.ts [CHARGES] [CONCURRENCY] [WORKERS=1,2]
//
// One Temporal dev server (in memory) and one throw-away PostgreSQL database (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432) for the whole run; the API as its own process (`dist/src/main.js api`,
// which migrates the database at start, as every role does) and worker processes (`dist/src/main.js worker`)
// on the same task queue, started as the configurations need them, launched as `npm run api` and
// `npm run worker` launch them (scripts/launch.sh). For each configuration, a closed loop of CONCURRENCY charge
// lifecycles, each POST /v1/transactions and then the simulated payer's POST /admin/simulator/charges/{id}/pay, until
// CHARGES charges are paid, after WARMUP_CHARGES unmeasured ones; the run ends when Temporal shows every
// charge workflow of the run completed. Reported per configuration:
// - charges/s (paid charges over the time until the last workflow completed), p50/p99 of one lifecycle
//   (create answered + pay answered);
// - CPU-ms per charge of the API process, each worker, the Temporal dev server, the backends of the
//   bench's database and all of PostgreSQL (anyone else's databases on the server included), from /proc
//   (bench/process-cpu.ts), with the machine's load average before the run (os.loadavg, as uptime shows);
// - PostgreSQL per charge, from pg_stat_database for the bench's database (pg_stat_statements needs a
//   server restart to load, so it is not used): commits (read-only transactions included), rollbacks,
//   rows inserted, updated and deleted; and from pg_walinspect, the WAL records over the run that touch
//   the database's relations or belong to a transaction that does: the transactions that wrote (their
//   commit records), the WAL bytes and the full-page images among them. A temporary replication slot
//   keeps the run's WAL until it is read;
// - Temporal per charge, from the histories of every workflow the run started (bench/temporal-actions.ts,
//   as bench:charges counts them), divided by the charges paid.
// A lifecycle that fails (a 202 when the engine's wait for the workflow runs out, for instance) is
// counted as an error and named on stderr; its charge's workflow, left waiting, is in the Temporal figures.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { CHARGE_WORKFLOW } from '../src/charges/contract.js';
import { newPayloadKeysJson } from '../src/config/payload-keys.js';
import { connect } from '../src/db/database.js';
import { startBenchDevServer } from './dev-server.js';
import { freePort } from '../src/runtime/free-port.js';
import { startProcess, stopProcess } from './child-process.js';
import { builtEngineEntry } from './engine.js';
import { engineLaunch } from '../scripts/launch.mjs';
import { bearerTokens } from './merchants.js';
import { jsonCalls, printTable, quantile } from './measure.js';
import { measureCpu, type CpuUse } from './process-cpu.js';
import { actionsPerOperation, billedActions, printActionsTable, type ActionCounts } from './temporal-actions.js';

const CHARGES = Number(process.argv[2] ?? 300);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const WORKERS = (process.argv[4] ?? '1,2').split(',').map(Number);
const WARMUP_CHARGES = 40;
/** Charges per API key, under the 100-per-minute quota whatever the rate. */
const CHARGES_PER_KEY = 90;
const SETTLE_DEADLINE_MS = 120_000;
/** A PostgreSQL 15 backend reports its statistics at most once a second, when idle. */
const STATS_FLUSH_MS = 2000;
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const CHARGE_BODY = {
  amount: 49.9,
  payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
  description: 'bench',
};

interface Run {
  label: string;
  loadAverage: string;
  charges: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  cpu: CpuUse;
  postgres: PostgresWrites;
  actions: ActionCounts & { operations: number };
}

interface PostgresWrites {
  commits: number;
  rollbacks: number;
  inserted: number;
  updated: number;
  deleted: number;
  /** Transactions that wrote (a commit record in the WAL). */
  writeCommits: number;
  bytes: number;
  /** Of `bytes`: full-page images, written at a page's first change after a checkpoint. */
  fullPageBytes: number;
}

type Sql = ReturnType<typeof connect>;

const perCharge = <T extends Record<string, number>>(totals: T, charges: number) =>
  Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, value / charges])) as T;

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
const call = jsonCalls(agent);

async function databaseCounters(admin: Sql, database: string) {
  const [row] = await admin<{ commits: string; rollbacks: string; inserted: string; updated: string; deleted: string; lsn: string }[]>`
    select xact_commit as commits, xact_rollback as rollbacks, tup_inserted as inserted, tup_updated as updated,
           tup_deleted as deleted, pg_current_wal_lsn()::text as lsn
      from pg_stat_database where datname = ${database}`;
  return row!;
}

/**
 * The WAL from `from` to `to` of the records on `database`'s relations and of the transactions that wrote
 * them: its bytes, and the commit records of those transactions (read-only ones write none).
 */
async function walWrites(sql: Sql, from: string, to: string): Promise<{ bytes: number; fullPageBytes: number; writeCommits: number }> {
  const [row] = await sql<{ bytes: string | null; fpi: string | null; commits: string }[]>`
    with records as (
      select xid, record_length, fpi_length, resource_manager, record_type,
             block_ref ~ ('rel \\d+/' || (select oid from pg_database where datname = current_database()) || '/') as ours
        from pg_get_wal_records_info(${from}::pg_lsn, ${to}::pg_lsn)
    ), written as (
      select * from records where ours or xid in (select xid from records where ours and xid <> '0'::xid)
    )
    select sum(record_length) as bytes, sum(fpi_length) as fpi,
           count(*) filter (where resource_manager = 'Transaction' and record_type = 'COMMIT') as commits
      from written`;
  return { bytes: Number(row!.bytes ?? 0), fullPageBytes: Number(row!.fpi ?? 0), writeCommits: Number(row!.commits) };
}

/** The Temporal work of every workflow started since `since` (charge workflows and any other), per charge. */
async function actionsPerCharge(client: Client, since: string, charges: number): Promise<ActionCounts & { operations: number }> {
  const { operations, ...perWorkflow } = await actionsPerOperation(client, `StartTime >= '${since}'`, Number.MAX_SAFE_INTEGER);
  const perCharge = Object.fromEntries(Object.entries(perWorkflow).map(([key, value]) => [key, (value * operations) / charges]));
  return { ...(perCharge as unknown as ActionCounts), operations: charges };
}

/** A process of the engine in `role`, from the build `npm run api` and `npm run worker` run, ready when `url` answers 200. */
async function startRole(role: 'api' | 'worker', env: Record<string, string>, url: string): Promise<ChildProcess> {
  return startProcess(...engineLaunch(await builtEngineEntry(), role), env, async () => (await fetch(url)).status === 200);
}

async function main() {
  process.stdout.write(
    `workers bench: ${CHARGES} charges created and paid per configuration (after ${WARMUP_CHARGES} unmeasured), ${CONCURRENCY} lifecycles in flight; workers: ${WORKERS.join(', ')}\n`,
  );
  const { server: temporalServer, port: temporalPort } = await startBenchDevServer();
  const client = new Client({ connection: await Connection.connect({ address: temporalServer.address }) });
  const database = `pix_bench_${randomBytes(4).toString('hex')}`;
  const admin = connect(`${PG}/postgres`, { max: 1 });
  const token = randomBytes(16).toString('hex');
  const [port, adminPort] = [await freePort(), await freePort()];
  const env = {
    HOST: '127.0.0.1',
    DATABASE_URL: `${PG}/${database}`,
    TEMPORAL_ADDRESS: temporalServer.address,
    PAYLOAD_KEYS: newPayloadKeysJson(),
    ADMIN_TOKEN: token,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pix-bench-')),
    LOG_LEVEL: 'warn',
  };
  const adminHeaders = { authorization: `Bearer ${token}` };
  const processes: ChildProcess[] = [];
  let sql: Sql | undefined;
  let releaseWal = () => {};
  try {
    const api = await startRole('api', { ...env, PORT: String(port), ADMIN_PORT: String(adminPort) }, `http://127.0.0.1:${port}/readyz`);
    processes.push(api);
    sql = connect(env.DATABASE_URL, { max: 1 });
    await sql`create extension if not exists pg_walinspect`;
    const wal = await sql.reserve();
    releaseWal = () => wal.release();
    const lifecycles = WORKERS.length * (WARMUP_CHARGES + CHARGES);
    const tokens = await bearerTokens(`http://127.0.0.1:${adminPort}/admin`, adminHeaders, Math.ceil(lifecycles / CHARGES_PER_KEY));
    let sequence = 0;
    /** One charge created and paid: its latency, or what failed. */
    const lifecycle = async (): Promise<number | string> => {
      const i = sequence++;
      const started = performance.now();
      const headers = { authorization: `Bearer ${tokens[Math.floor(i / CHARGES_PER_KEY)]}`, 'idempotency-key': `workers-${i}` };
      const created = await call(port, 'POST', '/v1/transactions', headers, CHARGE_BODY);
      if (created.status !== 201) return `create answered ${created.status}`;
      const paid = await call(adminPort, 'POST', `/admin/simulator/charges/${created.body.data.id}/pay`, adminHeaders);
      return paid.status === 200 ? performance.now() - started : `pay answered ${paid.status}`;
    };
    /** `count` lifecycles, CONCURRENCY in flight, then the wait until Temporal shows every charge workflow since `since` completed. */
    const load = async (count: number, since: string) => {
      const latencies: number[] = [];
      const errors = new Map<string, number>();
      let left = count;
      const loop = async () => {
        while (left-- > 0) {
          const outcome = await lifecycle();
          if (typeof outcome === 'number') latencies.push(outcome);
          else errors.set(outcome, (errors.get(outcome) ?? 0) + 1);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, loop));
      const completed = `WorkflowType = '${CHARGE_WORKFLOW}' AND StartTime >= '${since}' AND ExecutionStatus = 'Completed'`;
      while ((await client.workflow.count(completed)).count < latencies.length) {
        if (performance.now() - started > SETTLE_DEADLINE_MS) throw new Error('the paid charges did not all complete in time');
        await sleep(50);
      }
      latencies.sort((a, b) => a - b);
      if (errors.size) process.stderr.write(`${[...errors].map(([what, times]) => `${times} × ${what}`).join(', ')}\n`);
      return { latencies, errors, seconds: (performance.now() - started) / 1000 };
    };

    const runs: Run[] = [];
    const workers: number[] = [];
    for (const count of WORKERS) {
      while (workers.length < count) {
        const metricsPort = await freePort();
        const worker = await startRole('worker', { ...env, METRICS_PORT: String(metricsPort) }, `http://127.0.0.1:${metricsPort}/metrics`);
        processes.push(worker);
        workers.push(worker.pid!);
      }
      const label = `api + ${count} worker${count > 1 ? 's' : ''}`;
      await load(WARMUP_CHARGES, new Date().toISOString());
      const loadAverage = loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
      // A temporary slot (dropped with its session) keeps the run's WAL from being recycled before it is read.
      const slot = `${database}_${count}`;
      await wal`select pg_create_physical_replication_slot(${slot}, true, true)`;
      const before = await databaseCounters(admin, database);
      const since = new Date().toISOString();
      const named = Object.fromEntries([['api', api.pid!], ...workers.slice(0, count).map((pid, i) => [`worker ${i + 1}`, pid])]);
      const [figures, cpu] = await measureCpu({ temporalPort, database, named }, () => load(CHARGES, since));
      await sleep(STATS_FLUSH_MS);
      const after = await databaseCounters(admin, database);
      const n = figures.latencies.length;
      const delta = (key: keyof typeof before) => (Number(after[key]) - Number(before[key])) / n;
      runs.push({
        label,
        loadAverage,
        charges: n,
        perSecond: n / figures.seconds,
        p50: quantile(figures.latencies, 0.5),
        p99: quantile(figures.latencies, 0.99),
        errors: [...figures.errors.values()].reduce((sum, times) => sum + times, 0),
        cpu,
        postgres: {
          commits: delta('commits'),
          rollbacks: delta('rollbacks'),
          inserted: delta('inserted'),
          updated: delta('updated'),
          deleted: delta('deleted'),
          ...perCharge(await walWrites(wal, before.lsn, after.lsn), n),
        },
        actions: await actionsPerCharge(client, since, n),
      });
      await wal`select pg_drop_replication_slot(${slot})`;
    }
    report(runs);
  } finally {
    for (const child of processes.reverse()) await stopProcess(child);
    releaseWal();
    await sql?.end();
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
    agent.destroy();
    await client.connection.close();
    await temporalServer.stop();
  }
}

function report(runs: Run[]): void {
  const f = (n: number, digits = 1) => n.toFixed(digits);
  printTable(
    ['configuration', 'load avg (1/5/15 min)', 'charges', 'charges/s', 'p50 ms', 'p99 ms', 'errors'],
    runs.map((r) => [r.label, r.loadAverage, String(r.charges), f(r.perSecond), f(r.p50), f(r.p99), String(r.errors)]),
  );
  const workerColumns = Math.max(...runs.map((r) => Object.keys(r.cpu.named).length - 1));
  printTable(
    [
      'CPU-ms per charge',
      'api',
      ...Array.from({ length: workerColumns }, (_, i) => `worker ${i + 1}`),
      'workers',
      'Temporal',
      'PostgreSQL (bench db)',
      'PostgreSQL (all)',
      'load gen',
      'machine',
      'cores busy',
    ],
    runs.map(({ label, charges, cpu }) => {
      const per = (ms: number) => f(ms / charges, 2);
      const workers = Object.entries(cpu.named).filter(([name]) => name !== 'api');
      return [
        label,
        per(cpu.named.api!),
        ...Array.from({ length: workerColumns }, (_, i) => (workers[i] ? per(workers[i][1]) : '-')),
        per(workers.reduce((sum, [, ms]) => sum + ms, 0)),
        per(cpu.temporal),
        per(cpu.benchDatabaseBackends!),
        per(cpu.postgres),
        per(cpu.loadGenerator),
        per(cpu.machine),
        f(cpu.machine / cpu.elapsedMs, 2),
      ];
    }),
  );
  printTable(
    [
      'PostgreSQL per charge (bench db)',
      'commits',
      'of which wrote',
      'rollbacks',
      'rows inserted',
      'rows updated',
      'rows deleted',
      'WAL bytes',
      'of which full pages',
    ],
    runs.map(({ label, postgres: p }) => [
      label,
      f(p.commits),
      f(p.writeCommits),
      f(p.rollbacks),
      f(p.inserted),
      f(p.updated),
      f(p.deleted),
      f(p.bytes, 0),
      f(p.fullPageBytes, 0),
    ]),
  );
  printActionsTable(runs.map(({ label, actions }) => ({ label, counts: actions })));
  process.stdout.write(
    `\nPostgreSQL: pg_stat_database deltas of the bench's database (the bench's own statistics reads go to the postgres database); WAL from pg_walinspect.\n` +
      `Temporal: ${runs.map((r) => `${r.label}: ${f(billedActions(r.actions), 2)} actions, ${f(r.actions.events, 1)} history events per charge`).join('; ')}.\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
