// Memory with many charges waiting to be paid (issue 14, target 6: engine RSS ≤ 400 MB with 50,000 pending).
// Starts the engine (`src/main.ts all`, embedded Temporal dev server, fresh PostgreSQL database) with a
// charge validity of a day, so that no charge expires during the run, creates N charges through
// POST /v1/transactions with CONCURRENCY requests in flight (API keys in rotation, each under its
// 100-per-minute quota), then leaves the engine idle for IDLE_S. Every SAMPLE_S it reads the engine
// process's VmRSS and VmHWM (peak) from /proc and its main thread's V8 heap from GET /metrics (the
// workflows run in a thread of their own, whose heap is in the RSS only); the Temporal dev server is a
// process of its own, shown but not counted. Reported: RSS before, after creating and after the idle
// time, peak, RSS per 1000 pending charges, charges/s, the worker's sticky cache (size, forced evictions,
// misses) and workflow tasks, and the open charge workflows counted by Temporal and PostgreSQL.
// Last, what the cache's size costs: the PAY oldest charges, which a cache smaller than N no longer
// holds, are paid through the simulator (CONCURRENCY pay calls in flight) until PostgreSQL shows them
// all approved: settlements per second, the workflow tasks' mean duration and the sticky cache misses.
//
//   node --import tsx bench/pending-memory.ts [N=50000] [CONCURRENCY=16] [IDLE_S=120] [PAY=500]
//
// The engine inherits the environment: TEMPORAL_MAX_CACHED_WORKFLOWS=500 compares another cache size.
// BENCH_PREBUILT_BUNDLE=1 bundles the workflows here first and starts the engine on that bundle
// (TEMPORAL_WORKFLOW_BUNDLE), as a deployment that bundles ahead of time: no webpack in the engine.
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
// BENCH_DUE_DATE=1 creates due-date charges instead (issue 28): due in 30 days, with a fine, interest and a
// discount, so they would stay pending for weeks (the PAY oldest are paid today, with the discount).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../src/config/config.js';
import { connect } from '../src/db/database.js';
import { bundleWorkflows } from '../src/temporal/bundle.js';
import { addDays, saoPauloDate } from '../contracts/calendar.js';
import { parsePrometheusText, type Family } from '../test/helpers/prometheus-text.js';
import { startEngine, type BenchEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';
import { childPids, mb, memoryKb } from './process-memory.js';

const N = Number(process.argv[2] ?? 50_000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const IDLE_S = Number(process.argv[4] ?? 120);
const PAY = Math.min(N, Number(process.argv[5] ?? 500));
const PAY_DEADLINE_MS = 300_000;
const PREBUILT_BUNDLE = process.env.BENCH_PREBUILT_BUNDLE === '1';
const SAMPLE_S = 5;
const TARGET_MB = 400;
const TARGET_CHARGES = 50_000;
/** Charges per API key, below the 100-per-minute quota whatever the rate. */
const CHARGES_PER_KEY = 90;
const CHARGE_TTL_SECONDS = 24 * 60 * 60;
const DUE_DATE = process.env.BENCH_DUE_DATE === '1';
const today = saoPauloDate(new Date());
const CHARGE = {
  amount: 49.9,
  payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
  description: 'bench',
  ...(DUE_DATE
    ? {
        dueDate: addDays(today, 30),
        fine: { mode: 'percent', value: 2 },
        interest: { mode: 'percent_per_month', value: 1 },
        discounts: [{ until: addDays(today, 25), mode: 'fixed', value: 2.5 }],
      }
    : {}),
};

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY + 2 });
const call = jsonCalls(agent);

/** The sum of every series named `name` (all label sets: the SDK labels its series by task queue, worker type…). */
function total(families: Map<string, Family>, name: string): number {
  return [...families.values()]
    .flatMap((family) => family.samples)
    .filter((sample) => sample.name === name)
    .reduce((sum, sample) => sum + sample.value, 0);
}

interface Sample {
  seconds: number;
  created: number;
  rssKb: number;
  peakKb: number;
  heapUsedKb: number;
  heapTotalKb: number;
  devServerRssKb: number;
  metrics: Map<string, Family>;
}

/** Reads the engine's memory every SAMPLE_S and prints a line; `created()` says how many charges exist so far. */
function sampler(engine: BenchEngine, created: () => number) {
  const started = Date.now();
  const take = async (): Promise<Sample> => {
    const { rss, peak } = memoryKb(engine.pid);
    const metrics = parsePrometheusText(await (await fetch(`http://127.0.0.1:${engine.adminPort}/metrics`)).text());
    const sample: Sample = {
      seconds: (Date.now() - started) / 1000,
      created: created(),
      rssKb: rss,
      peakKb: peak,
      heapUsedKb: total(metrics, 'nodejs_heap_size_used_bytes') / 1024,
      heapTotalKb: total(metrics, 'nodejs_heap_size_total_bytes') / 1024,
      devServerRssKb: childPids(engine.pid).reduce((sum, pid) => sum + memoryKb(pid).rss, 0),
      metrics,
    };
    process.stdout.write(
      `${sample.seconds.toFixed(0).padStart(5)} s  ${String(sample.created).padStart(6)} charges  engine RSS ${mb(rss).padStart(4)} MB` +
        `  (peak ${mb(peak)}, main-thread heap ${mb(sample.heapUsedKb)} of ${mb(sample.heapTotalKb)} MB, cache ${total(metrics, 'temporal_sticky_cache_size')})` +
        `  Temporal dev server ${mb(sample.devServerRssKb)} MB\n`,
    );
    return sample;
  };
  const timer = setInterval(() => void take().catch(() => {}), SAMPLE_S * 1000);
  return { take, stop: () => clearInterval(timer) };
}

/** The workflow bundle the engine would make at start, made here: its path. */
async function prebuiltBundle(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'pix-bench-bundle-')), 'workflows.js');
  writeFileSync(path, await bundleWorkflows());
  return path;
}

/** One merchant and enough payments:write keys that none takes more than CHARGES_PER_KEY of the N charges. */
async function chargeKeys(engine: BenchEngine): Promise<string[]> {
  const admin = (path: string, body: unknown) => call(engine.adminPort, 'POST', `/admin${path}`, engine.adminHeaders, body);
  const account = await admin('/accounts', {
    name: 'Loja Bench Memória',
    document: '11222333000181',
    email: 'memoria@example.com',
    kycStatus: 'approved',
  });
  if (account.status !== 201) throw new Error(`account creation answered ${account.status}`);
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(N / CHARGES_PER_KEY); i += 1) {
    keys.push((await admin(`/accounts/${account.body.data.id}/api-keys`, { permissions: ['payments:write'] })).body.data.key);
  }
  return keys;
}

/**
 * A keep-alive socket the server closed as the request left answers ECONNRESET (seen once after 39,000
 * charges of a 78-minute run): the creation is repeated with its key, which the engine answers idempotently.
 */
async function retriedOnReset<T>(send: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await send();
    } catch (err) {
      if ((err as { code?: string }).code !== 'ECONNRESET' || attempt === attempts) throw err;
    }
  }
}

/** N charges, CONCURRENCY in flight. Any 2xx leaves a pending charge (202: the engine's accept wait ran out). */
async function createCharges(engine: BenchEngine, keys: string[], progress: { created: number }) {
  const ids: string[] = [];
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    for (let i = next++; i < N; i = next++) {
      const answer = await retriedOnReset(() =>
        call(
          engine.port,
          'POST',
          '/v1/transactions',
          { authorization: `Bearer ${keys[Math.floor(i / CHARGES_PER_KEY)]}`, 'idempotency-key': `memory-${i}` },
          CHARGE,
        ),
      );
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 200 && answer.status < 300) {
        ids[i] = answer.body.data.id;
        progress.created += 1;
        latencies.push(answer.ms);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    ids: ids.filter(Boolean),
    seconds,
    perSecond: progress.created / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    statuses,
  };
}

/** Pays `ids` through the simulator, CONCURRENCY at a time, and waits until PostgreSQL shows them approved: the seconds it took. */
async function payAndSettle(engine: BenchEngine, ids: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  const payer = async () => {
    for (let i = next++; i < ids.length; i = next++) {
      const paid = await call(engine.adminPort, 'POST', `/admin/simulator/charges/${ids[i]}/pay`, engine.adminHeaders);
      if (paid.status !== 200) throw new Error(`pay ${ids[i]} answered ${paid.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, payer));
  const sql = connect(engine.databaseUrl, { max: 1 });
  try {
    const approved = async () =>
      (await sql<{ n: number }[]>`select count(*)::int as n from transactions where id = any(${ids}) and status = 'approved'`)[0]!.n;
    while ((await approved()) < ids.length) {
      if (performance.now() - started > PAY_DEADLINE_MS)
        throw new Error(`the paid charges were not all approved within ${PAY_DEADLINE_MS / 1000} s`);
      await sleep(100);
    }
  } finally {
    await sql.end();
  }
  return (performance.now() - started) / 1000;
}

/** Open charge workflows by Temporal's count and pending charges by PostgreSQL's. */
async function openCharges(engine: BenchEngine): Promise<{ workflows: number; pending: number }> {
  const connection = await Connection.connect({ address: engine.temporalAddress });
  const sql = connect(engine.databaseUrl, { max: 1 });
  try {
    const { count } = await new Client({ connection }).workflow.count(`WorkflowType = 'chargeWorkflow' AND ExecutionStatus = 'Running'`);
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from transactions where type = 'payment' and status = 'pending'`;
    return { workflows: count, pending: row!.n };
  } finally {
    await connection.close();
    await sql.end();
  }
}

async function main() {
  const bundle = PREBUILT_BUNDLE ? await prebuiltBundle() : null;
  const cache = loadConfig().temporalMaxCachedWorkflows;
  process.stdout.write(
    `pending-memory bench: ${N} charges, ${CONCURRENCY} in flight, then ${IDLE_S} s idle; worker cache ${cache} workflows (TEMPORAL_MAX_CACHED_WORKFLOWS); ` +
      `${bundle ? 'workflows bundled before the start (BENCH_PREBUILT_BUNDLE=1)' : 'workflows bundled by the engine at start'}\n`,
  );
  const engine = await startEngine({
    CHARGE_TTL_SECONDS: String(CHARGE_TTL_SECONDS),
    ...(bundle ? { TEMPORAL_WORKFLOW_BUNDLE: bundle } : {}),
  });
  const progress = { created: 0 };
  const memory = sampler(engine, () => progress.created);
  try {
    const keys = await chargeKeys(engine);
    const before = await memory.take();
    const run = await createCharges(engine, keys, progress);
    const afterCreation = await memory.take();
    await sleep(IDLE_S * 1000);
    const afterIdle = await memory.take();
    const open = await openCharges(engine);
    const paySeconds = await payAndSettle(engine, run.ids.slice(0, PAY));
    const afterPay = await memory.take();
    memory.stop();

    const perThousand = (sample: Sample) => (((sample.rssKb - before.rssKb) / 1024) * 1000) / Math.max(progress.created, 1);
    const temporal = (name: string, from = before, to = afterIdle) => total(to.metrics, name) - total(from.metrics, name);
    // A task for a workflow the cache no longer holds replays its whole history: it takes longer.
    const workflowTasks = (from: Sample, to: Sample) => {
      const count = temporal('temporal_workflow_task_execution_latency_count', from, to);
      const ms = (temporal('temporal_workflow_task_execution_latency_sum', from, to) * 1000) / Math.max(count, 1);
      return `${count} workflow tasks (${ms.toFixed(0)} ms each on average), ${temporal('temporal_sticky_cache_miss_total', from, to)} sticky cache misses`;
    };
    const statuses = [...run.statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
    process.stdout.write(
      `\ncharges created: ${progress.created} of ${N} in ${run.seconds.toFixed(0)} s (${run.perSecond.toFixed(1)}/s, p50 ${run.p50.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms); answers: ${statuses}\n` +
        `open charge workflows (Temporal): ${open.workflows}; pending charges (PostgreSQL): ${open.pending}\n` +
        `worker sticky cache: ${total(afterIdle.metrics, 'temporal_sticky_cache_size')} workflows held (limit ${cache}); during the run ` +
        `${temporal('temporal_sticky_cache_total_forced_eviction_total')} forced evictions, ${workflowTasks(before, afterIdle)}\n` +
        `engine RSS before the charges:  ${mb(before.rssKb)} MB  (main-thread heap ${mb(before.heapUsedKb)} of ${mb(before.heapTotalKb)} MB)\n` +
        `engine RSS after creating them: ${mb(afterCreation.rssKb)} MB  (+${perThousand(afterCreation).toFixed(1)} MB per 1000 pending)\n` +
        `engine RSS after ${IDLE_S} s idle:   ${mb(afterIdle.rssKb)} MB  (+${perThousand(afterIdle).toFixed(1)} MB per 1000 pending; main-thread heap ${mb(afterIdle.heapUsedKb)} of ${mb(afterIdle.heapTotalKb)} MB)\n` +
        `engine peak RSS (VmHWM):        ${mb(afterIdle.peakKb)} MB\n` +
        `Temporal dev server RSS (its own process, not counted): ${mb(afterIdle.devServerRssKb)} MB\n` +
        `then ${PAY} of the oldest charges paid: all approved in ${paySeconds.toFixed(1)} s (${(PAY / paySeconds).toFixed(1)}/s); ` +
        `${workflowTasks(afterIdle, afterPay)}; engine RSS then ${mb(afterPay.rssKb)} MB\n` +
        `target: engine RSS ≤ ${TARGET_MB} MB with ${TARGET_CHARGES} pending (the workflows waiting on their timers: after the idle time): ` +
        `${afterIdle.rssKb <= TARGET_MB * 1024 ? 'met' : 'NOT met'} with ${progress.created} pending (peak while creating them: ${mb(afterIdle.peakKb)} MB)\n`,
    );
  } finally {
    memory.stop();
    agent.destroy();
    await engine.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
