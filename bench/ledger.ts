// Ledger throughput (issue 14, target 4): postings/s of charge approvals settled by the engine's own
// settlement (settleChargePaid, the function the settleChargePaid activity runs: transaction row →
// approved, the posting, the event, in one PostgreSQL transaction), with BENCH_CONCURRENCY callers
// (default 16), no Temporal and no HTTP:
//   (a) approvals spread over 1000 merchants: target ≥ 2000 postings/s;
//   (b) approvals into ONE merchant: target ≥ 500 postings/s;
// and plain post() of the same entries, each in its own transaction, so that the ledger's own cost shows.
// Every run ends with the ledger check (src/ledger/check.ts), which must be clean.
//
// A fresh database migrated by the engine's migrator, merchants and pending charges seeded straight into
// PostgreSQL, dropped at the end. BENCH_APPROVALS (default 4000) per run.
import { randomBytes } from 'node:crypto';
import { settleChargePaid } from '../src/charges/lifecycle.js';
import { connect, type Sql } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { customerAccount, platformAccount } from '../src/ledger/accounts.js';
import { ledgerReport } from '../src/ledger/check.js';
import { post } from '../src/ledger/post.js';
import { createLogger } from '../src/log.js';
import { quantile } from './measure.js';

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
}

/** `work(0 … APPROVALS-1)` by CONCURRENCY callers taking the next index; each call's latency. */
async function drive(label: string, work: (i: number) => Promise<unknown>): Promise<RunFigures> {
  const ms: number[] = [];
  let next = 0;
  const caller = async () => {
    for (let i = next++; i < APPROVALS; i = next++) {
      const started = process.hrtime.bigint();
      await work(i);
      ms.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  ms.sort((a, b) => a - b);
  return { label, postings: ms.length, perSecond: ms.length / seconds, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

async function report(sql: Sql, figures: RunFigures, target?: number): Promise<boolean> {
  const check = await ledgerReport(sql);
  const met = target === undefined ? '' : figures.perSecond >= target ? `   ≥ ${target}: met` : `   < ${target}: NOT MET`;
  console.log(
    `  ${figures.label.padEnd(44)} ${figures.perSecond.toFixed(0).padStart(6)} postings/s   ` +
      `p50 ${figures.p50.toFixed(1).padStart(6)} ms   p99 ${figures.p99.toFixed(1).padStart(6)} ms${met}`,
  );
  console.log(`  ${''.padEnd(44)} ledger check: ${check.ok ? 'ok' : 'FAILED'}, ${check.postings} postings, ${check.violations.length} violations`);
  if (!check.ok) console.log(JSON.stringify(check.violations.slice(0, 10), null, 2));
  return check.ok;
}

async function main() {
  const database = `pix_bench_ledger_${randomBytes(4).toString('hex')}`;
  const admin = connect(`${PG}/postgres`, { max: 1 });
  await admin.unsafe(`create database "${database}"`);
  const sql = connect(`${PG}/${database}`, { max: CONCURRENCY });
  let clean = true;
  try {
    const applied = await migrate(sql);
    console.log(`migrated: ${applied.at(-1)}`);
    await seed(sql, [
      { run: 'spread', spread: true },
      { run: 'hot', spread: false },
    ]);
    const [settings] = await sql<{ sc: string }[]>`select current_setting('synchronous_commit') as sc`;
    console.log(`${APPROVALS} approvals per run, ${CONCURRENCY} concurrent callers (pool of ${CONCURRENCY}), synchronous_commit ${settings!.sc}\n`);

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

    clean = (await report(sql, await drive(`approvals, ${MERCHANTS} merchants`, approve('spread')), 2000)) && clean;
    clean = (await report(sql, await drive('approvals, one merchant', approve('hot')), 500)) && clean;
    clean = (await report(sql, await drive(`post() alone, ${MERCHANTS} merchants`, plainPost('post_spread', (i) => merchantId(1 + (i % MERCHANTS)))))) && clean;
    clean = (await report(sql, await drive('post() alone, one merchant', plainPost('post_hot', () => HOT)))) && clean;
  } finally {
    await sql.end();
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
  }
  if (!clean) process.exitCode = 1;
}

await main();
