// Ledger throughput (issue 14, target 4): postings/s of charge approvals settled by the engine's own
// settlement (settleChargePaid, the function the settleChargePaid activity runs: transaction row →
// approved, the posting, the event, in one PostgreSQL transaction; approvals that arrive together go as
// one batch, src/db/group-commit.ts), with BENCH_CONCURRENCY callers (default 16), no Temporal, no HTTP:
//   (a) approvals spread over 1000 merchants: target ≥ 2000 postings/s;
//   (b) approvals into ONE merchant: target ≥ 500 postings/s;
// and plain post() of the same entries, each in its own transaction, so that the ledger's own cost shows.
// Every run ends with the ledger check (src/ledger/check.ts), which must be clean. Beside postings/s and
// p50/p99 per call: the CPU time per posting of the database's backends and of this process (the machine
// is shared: they move less with its load than the rate does), how many callers wait on a row lock on
// average, and the balance deltas left (migration 100_ledger_balance_deltas.sql).
//
// A fresh database migrated by the engine's migrator, merchants and pending charges seeded straight into
// PostgreSQL, dropped at the end. BENCH_APPROVALS (default 4000) per run, after a warm-up run of as many
// approvals (not reported) and with `vacuum analyze` before each run, as autovacuum would keep a ledger
// in service.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { settleChargePaid } from '../src/charges/lifecycle.js';
import { connect, type Sql } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { customerAccount, platformAccount } from '../src/ledger/accounts.js';
import { ledgerReport } from '../src/ledger/check.js';
import { post } from '../src/ledger/post.js';
import { createLogger } from '../src/runtime/log.js';
import { processCpuMs, quantile } from './measure.js';

const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const MERCHANTS = 1000;
const HOT = 'acc_bench_hot';
const FEE_CENTS = 50;

const merchantId = (i: number) => `acc_bench_${String(i).padStart(4, '0')}`;
const amountOf = (i: number) => 1_000 + ((i * 7919) % 100_000);

/** The merchants (the 1000 and the hot one) and, per run, APPROVALS pending charges named `txn_<run>_<n>`. */
async function seed(sql: Sql, runs: { run: string; spread: boolean }[]): Promise<void> {
  await sql`
    insert into accounts (id, name, document, email, kyc_status, duplicate_allowed)
    select case when g = 0 then ${HOT} else 'acc_bench_' || lpad(g::text, 4, '0') end,
           'Loja ' || g, '11222333000181', 'loja' || g || '@example.com', 'approved', true
      from generate_series(0, ${MERCHANTS}) g`;
  for (const { run, spread } of runs) {
    await sql`
      insert into transactions (id, account_id, external_id, direction, type, method, status, acquirer,
                                amount, fee, net_amount, fingerprint, payer, description, expires_at)
      select 'txn_' || ${run} || '_' || g,
             case when ${spread} then 'acc_bench_' || lpad((1 + g % ${MERCHANTS})::text, 4, '0') else ${HOT} end,
             ${run} || '_' || g, 'in', 'payment', 'pix', 'pending', 'simulator',
             1000 + (g * 7919) % 100000, ${FEE_CENTS}, 1000 + (g * 7919) % 100000 - ${FEE_CENTS}, 'bench',
             '{"name":"Maria da Silva","document":"52998224725"}'::jsonb, 'bench', now() + interval '1 hour'
        from generate_series(0, ${APPROVALS - 1}) g`;
  }
  await sql`vacuum analyze`;
}

interface RunFigures {
  label: string;
  postings: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU time per posting of the database's backends and of this process: what a shared machine's noise does not change much. */
  pgCpuMs: number;
  nodeCpuMs: number;
  /** Callers waiting on a lock (a hot row), on average over samples every 20 ms. */
  lockWaiters: number;
}

/** CPU time (user + system) the processes have used so far, in ms. */
const cpuMs = (pids: number[]): number => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);

/** Opens every connection of the pool (so that their backends' CPU time can be read) and returns their pids. */
async function backendPids(sql: Sql): Promise<number[]> {
  const rows = await Promise.all(
    Array.from({ length: CONCURRENCY }, () => sql<{ pid: number }[]>`select pg_backend_pid() as pid from pg_sleep(0.05)`),
  );
  return [...new Set(rows.map(([row]) => row!.pid))];
}

/** Samples, on a connection of its own, how many of the database's backends wait on a lock, until stopped. */
function lockSampler(sql: Sql): { stop(): Promise<number> } {
  let running = true;
  const samples: number[] = [];
  const sampling = (async () => {
    while (running) {
      const [row] = await sql<{ waiting: number }[]>`
        select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      samples.push(row!.waiting);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await sampling;
      return samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
    },
  };
}

/** `work(0 … APPROVALS-1)` by CONCURRENCY callers taking the next index; each call's latency. */
async function drive(sql: Sql, sampler: Sql, label: string, work: (i: number) => Promise<unknown>): Promise<RunFigures> {
  const pids = await backendPids(sql);
  const ms: number[] = [];
  let next = 0;
  let failure: unknown;
  // A failure stops every caller (each after its call in flight), then ends the run with it.
  const caller = async () => {
    for (let i = next++; i < APPROVALS && failure === undefined; i = next++) {
      const started = process.hrtime.bigint();
      await work(i).catch((err: unknown) => (failure ??= err));
      ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const [pgBefore, nodeBefore] = [cpuMs(pids), process.cpuUsage()];
  const locks = lockSampler(sampler);
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lockWaiters = await locks.stop();
  if (failure !== undefined) throw failure;
  const node = process.cpuUsage(nodeBefore);
  const pgCpuMs = (cpuMs(pids) - pgBefore) / ms.length;
  ms.sort((a, b) => a - b);
  return {
    label,
    postings: ms.length,
    perSecond: ms.length / seconds,
    p50: quantile(ms, 0.5),
    p99: quantile(ms, 0.99),
    pgCpuMs,
    nodeCpuMs: (node.user + node.system) / 1000 / ms.length,
    lockWaiters,
  };
}

async function report(sql: Sql, figures: RunFigures, target?: number): Promise<boolean> {
  const check = await ledgerReport(sql);
  const [deltas] = await sql<{ left: number }[]>`select count(*)::int as left from ledger_balance_deltas`;
  const met = target === undefined ? '' : figures.perSecond >= target ? `   ≥ ${target}: met` : `   < ${target}: NOT MET`;
  console.log(
    `  ${figures.label.padEnd(44)} ${figures.perSecond.toFixed(0).padStart(6)} postings/s   ` +
      `p50 ${figures.p50.toFixed(1).padStart(6)} ms   p99 ${figures.p99.toFixed(1).padStart(6)} ms${met}`,
  );
  console.log(
    `  ${''.padEnd(44)} CPU per posting: PostgreSQL ${figures.pgCpuMs.toFixed(2)} ms, bench process ${figures.nodeCpuMs.toFixed(2)} ms; ${figures.lockWaiters.toFixed(1)} callers waiting on a lock\n` +
      `  ${''.padEnd(44)} ledger check: ${check.ok ? 'ok' : 'FAILED'}, ${check.postings} postings, ${check.violations.length} violations; ${deltas!.left} deltas left`,
  );
  if (!check.ok) console.log(JSON.stringify(check.violations.slice(0, 10), null, 2));
  return check.ok;
}

async function main() {
  const database = `pix_bench_ledger_${randomBytes(4).toString('hex')}`;
  const admin = connect(`${PG}/postgres`, { max: 1 });
  await admin.unsafe(`create database "${database}"`);
  const sql = connect(`${PG}/${database}`, { max: CONCURRENCY });
  const sampler = connect(`${PG}/${database}`, { max: 1 });
  let clean = true;
  try {
    const applied = await migrate(sql);
    console.log(`migrated: ${applied.at(-1)}`);
    await seed(sql, [
      { run: 'warmup', spread: true },
      { run: 'spread', spread: true },
      { run: 'hot', spread: false },
    ]);
    const [settings] = await sql<{ sc: string }[]>`select current_setting('synchronous_commit') as sc`;
    console.log(
      `${APPROVALS} approvals per run, ${CONCURRENCY} concurrent callers (pool of ${CONCURRENCY}), synchronous_commit ${settings!.sc}; ` +
        `${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)} (other processes share them)\n`,
    );

    const deps = { sql, config: { pixRoutes: [], chargeTtlSeconds: 3600 }, log: createLogger('warn') };
    const approve = (run: string) => (i: number) =>
      settleChargePaid(deps, `txn_${run}_${i}`, {
        status: 'paid',
        paidAt: new Date().toISOString(),
        amountCents: amountOf(i),
        payer: { name: 'Maria da Silva', bankName: 'Banco Bench' },
        endToEndId: `E${run}${i}`,
      });
    // The entries an approval posts (no split): what settleChargePaid hands to post().
    const plainPost = (run: string, merchant: (i: number) => string) => (i: number) => {
      const id = `txn_${run}_${i}`;
      return sql.begin((tx) =>
        post(tx, {
          key: `charge:${id}:settle`,
          transactionId: id,
          description: 'Cobrança Pix paga',
          entries: [
            { account: platformAccount('pix_clearing', id), amount: -amountOf(i) },
            { account: platformAccount('fee_revenue', id), amount: FEE_CENTS },
            { account: customerAccount(merchant(i), 'available'), amount: amountOf(i) - FEE_CENTS },
          ],
        }),
      );
    };

    // A ledger that has postings, with statistics that say so, as autovacuum keeps them in service: on
    // empty tables, the plans PostgreSQL caches for its foreign key checks scan whole tables.
    await drive(sql, sampler, 'warm-up', approve('warmup'));
    const measured = async (label: string, work: (i: number) => Promise<unknown>) => {
      await sql`vacuum analyze`;
      return drive(sql, sampler, label, work);
    };
    clean = (await report(sql, await measured(`approvals, ${MERCHANTS} merchants`, approve('spread')), 2000)) && clean;
    clean = (await report(sql, await measured('approvals, one merchant', approve('hot')), 500)) && clean;
    clean =
      (await report(
        sql,
        await measured(
          `post() alone, ${MERCHANTS} merchants`,
          plainPost('post_spread', (i) => merchantId(1 + (i % MERCHANTS))),
        ),
      )) && clean;
    clean =
      (await report(
        sql,
        await measured(
          'post() alone, one merchant',
          plainPost('post_hot', () => HOT),
        ),
      )) && clean;
  } finally {
    await sql.end();
    await sampler.end();
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
  }
  if (!clean) process.exitCode = 1;
}

await main();
