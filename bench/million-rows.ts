// Flat cost with data (issue 14, target 5): N transactions (BENCH_ROWS, default 1,000,000) seeded straight
// into PostgreSQL by one `insert … select generate_series`, then ONE caller, sequentially, reading what a
// merchant reads: balance, page 1 and a deep page of transactions (without filters and with each kind of
// filter), a lookup by externalId, MEDs and the public transparency figures. It first checks that the
// totals these answer from counters (migration 110) equal count(*). Prints p50/p99 per endpoint and
// EXPLAIN (ANALYZE, BUFFERS) of the SQL
// behind each (the same statements as src/transactions/repository.ts, src/meds/repository.ts,
// src/ledger/balance.ts and src/api/routes/transparency.ts).
//
// The mix: 300 small merchants and one big one holding 80 % of the rows; one in seven rows a withdrawal
// (approved or failed), payments mostly approved, some pending, cancelled, failed, refunded; a MED on one
// in 700 rows (all the big merchant's approved payments); the ledger's balances posted once per merchant.
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type Sql } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { startEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const SMALL_MERCHANTS = 300;
const BIG = 'acc_bench_big';
const DEEP_PAGE = 2000; // limit 20 (the default; the spec allows up to 100): offset 39,980
/** The list's filters on the deep page beside none: each is read through its own index (migration 110). */
const DEEP_FILTERS: Record<string, string>[] = [{ status: 'approved' }, { type: 'withdrawal' }, { status: 'approved', type: 'payment' }];
const WARM_UP = 5; // requests per endpoint before measuring
const KEY_QUOTA = 100; // requests per key per minute (src/routing/rate-limit.ts): keys are rotated below it
const TARGET_P99_MS = 20;

async function seed(sql: Sql): Promise<void> {
  await sql`
    insert into accounts (id, name, document, email, kyc_status, duplicate_allowed)
    select case when g = 0 then ${BIG} else 'acc_bench_' || lpad(g::text, 3, '0') end,
           'Loja ' || g, '11222333000181', 'loja' || g || '@example.com', 'approved', true
      from generate_series(0, ${SMALL_MERCHANTS}) g`;
  await sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`;
    await tx`
      insert into transactions (id, account_id, external_id, direction, type, method, status, acquirer,
                                amount, fee, net_amount, fingerprint, payer, description, processor_ref,
                                expires_at, approved_at, created_at, updated_at)
      select case when withdrawal then 'out_' else 'txn_' end || lpad(g::text, 10, '0'),
             case when g % 10 < 8 then ${BIG} else 'acc_bench_' || lpad((1 + (g / 10) % ${SMALL_MERCHANTS})::text, 3, '0') end,
             'ext_' || g,
             case when withdrawal then 'out' else 'in' end,
             case when withdrawal then 'withdrawal' else 'payment' end,
             'pix', status, 'simulator', amount, 50, amount - 50, 'bench',
             '{"name":"Maria da Silva","document":"52998224725","email":"maria@example.com"}'::jsonb,
             'bench', 'sim' || g,
             created + interval '15 minutes',
             case when status in ('approved', 'refunded') then created + interval '3 seconds' end,
             created, created
        from (
          select g, g % 7 = 0 as withdrawal, 100 + (g::bigint * 7919) % 100000 as amount,
                 now() - (${ROWS} - g) * interval '1 second' as created,
                 case
                   when g % 7 = 0 then case when g % 100 < 90 then 'approved' else 'failed' end
                   when g % 100 < 75 then 'approved'
                   when g % 100 < 85 then 'pending'
                   when g % 100 < 92 then 'cancelled'
                   when g % 100 < 97 then 'failed'
                   else 'refunded'
                 end as status
            from generate_series(1, ${ROWS}) g
        ) s`;
  });
  // g % 700 = 1: a payment (g % 7 = 1), approved (g % 100 = 1), of the big merchant (g % 10 = 1).
  await sql`
    insert into meds (id, account_id, transaction_id, status, reason, amount, retained_amount, deadline_at, decided_at, created_at, updated_at)
    select 'med_' || lpad(g::text, 10, '0'), t.account_id, t.id,
           (array['open', 'accepted', 'rejected'])[1 + (g / 700) % 3], 'fraud', t.amount, t.amount,
           t.created_at + interval '7 days',
           case when (g / 700) % 3 <> 0 then t.created_at + interval '1 day' end,
           t.created_at + interval '1 hour', t.created_at + interval '1 hour'
      from generate_series(1, ${ROWS}, 700) g
      join transactions t on t.id = 'txn_' || lpad(g::text, 10, '0')`;
  // Each merchant's balances as one posting against the platform's clearing account, so that balances
  // equal the sum of their entries. Retained: the open MEDs' amounts.
  await sql`
    insert into ledger_accounts (id, owner_id, kind, balance)
    select a.id || ':' || k.kind, a.id, k.kind,
           case k.kind
             when 'available' then coalesce((select sum(net_amount) from transactions t where t.account_id = a.id and t.status = 'approved' and t.type = 'payment'), 0)
                                   - coalesce((select sum(amount) from meds m where m.account_id = a.id and m.status = 'open'), 0)
             when 'retained' then coalesce((select sum(amount) from meds m where m.account_id = a.id and m.status = 'open'), 0)
             else 0
           end
      from accounts a cross join (values ('available'), ('reserved'), ('retained')) k(kind)`;
  await sql`insert into ledger_accounts (id, owner_id, kind, balance) select 'platform:pix_clearing:00', null, 'pix_clearing', -sum(balance) from ledger_accounts`;
  await sql`
    insert into ledger_postings (posting_key, description)
    select 'bench:seed:' || id, 'bench seed' from accounts`;
  await sql`
    insert into ledger_entries (posting_id, ledger_account_id, amount)
    select p.id, l.id, l.balance from ledger_accounts l join ledger_postings p on p.posting_key = 'bench:seed:' || l.owner_id where l.balance <> 0
    union all
    select p.id, 'platform:pix_clearing:00', -sum(l.balance) from ledger_accounts l join ledger_postings p on p.posting_key = 'bench:seed:' || l.owner_id
     group by p.id having sum(l.balance) <> 0`;
  // As autovacuum would after the load: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze`;
}

/** A page of the list as listTransactions reads it: the page's ids from an index, then their rows. */
function transactionsPage(account: string, offset: number, filters: Record<string, string> = {}): string {
  const where = [`account_id = ${account}`, ...Object.entries(filters).map(([column, value]) => `${column} = '${value}'`)].join(' and ');
  return `select t.* from transactions t join (select id from transactions where ${where} order by created_at desc, id desc limit 20 offset ${offset}) page using (id) order by t.created_at desc, t.id desc`;
}

const deepPagePath = (filters: Record<string, string> = {}) =>
  `/transactions?${new URLSearchParams({ ...filters, page: String(DEEP_PAGE), limit: '20' })}`;

/** The statements behind each endpoint, as the repositories send them, with the bench's values. */
function statements(deepOffset: number): { endpoint: string; sql: string }[] {
  const account = `'${BIG}'`;
  const medSelect = 'select m.*, t.external_id from meds m join transactions t on t.id = m.transaction_id';
  return [
    {
      endpoint: 'balance',
      sql: `select kind, balance from ledger_balances where owner_id = ${account} and kind = any('{available,reserved,retained}'::text[])`,
    },
    { endpoint: 'transactions page 1', sql: transactionsPage(account, 0) },
    {
      endpoint: 'transactions total (counters of migration 110)',
      sql: `select coalesce(sum(transactions), 0)::bigint as total from transaction_counts where account_id = ${account}`,
    },
    { endpoint: `transactions page ${DEEP_PAGE}`, sql: transactionsPage(account, deepOffset) },
    ...DEEP_FILTERS.map((filters) => ({
      endpoint: `transactions page ${DEEP_PAGE}, ${new URLSearchParams(filters)}`,
      sql: transactionsPage(account, deepOffset, filters),
    })),
    {
      endpoint: 'transaction by externalId',
      sql: `select * from transactions where account_id = ${account} and (id = 'ext_11' or external_id = 'ext_11') order by (id = 'ext_11') desc limit 1`,
    },
    {
      endpoint: 'meds page 1',
      sql: `${medSelect} where m.account_id = ${account} order by m.created_at desc, m.id desc limit 20 offset 0`,
    },
    { endpoint: 'meds page 1 (count)', sql: `select count(*)::int as total from meds m where m.account_id = ${account}` },
    {
      endpoint: 'transparency (counters of migration 110)',
      sql: 'select coalesce(sum(approved_transactions), 0)::bigint as approved, coalesce(sum(approved_volume), 0)::bigint as volume, coalesce(sum(accounts), 0)::bigint as accounts from platform_counts',
    },
  ];
}

function figures(label: string, ms: number[]): { label: string; p50: number; p99: number; over: boolean } {
  const sorted = [...ms].sort((a, b) => a - b);
  const p99 = quantile(sorted, 0.99);
  return { label, p50: quantile(sorted, 0.5), p99, over: p99 > TARGET_P99_MS };
}

async function main() {
  const database = `pix_bench_rows_${randomBytes(4).toString('hex')}`;
  const admin = connect(`${PG}/postgres`, { max: 1 });
  await admin.unsafe(`create database "${database}"`);
  const databaseUrl = `${PG}/${database}`;
  const sql = connect(databaseUrl, { max: 4 });
  let engine: Awaited<ReturnType<typeof startEngine>> | undefined;
  try {
    const applied = await migrate(sql);
    console.log(`migrated: ${applied.at(-1)}`);
    let started = Date.now();
    await seed(sql);
    const [counted] = await sql<{ big: number }[]>`select count(*)::int as big from transactions where account_id = ${BIG}`;
    const big = counted!.big;
    console.log(
      `seeded ${ROWS.toLocaleString('en')} transactions (${big.toLocaleString('en')} of the big merchant) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    engine = await startEngine({ DATABASE_URL: databaseUrl });
    const adminUrl = `http://127.0.0.1:${engine.adminPort}/admin`;
    const keys: string[] = [];
    const endpoints = 5 + DEEP_FILTERS.length; // the authenticated ones
    const authenticatedCalls = endpoints * (REQUESTS + WARM_UP) + 1; // + the check of the list's total
    for (let i = 0; i < Math.ceil(authenticatedCalls / (KEY_QUOTA - 5)); i++) {
      const res = await fetch(`${adminUrl}/accounts/${BIG}/api-keys`, {
        method: 'POST',
        headers: { ...engine.adminHeaders, 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: ['transactions:read', 'balance:read'] }),
      });
      if (res.status !== 201) throw new Error(`admin api-keys answered ${res.status}: ${await res.text()}`);
      keys.push(((await res.json()) as { data: { key: string } }).data.key);
    }
    let used = 0;
    const nextKey = () => keys[Math.floor(used++ / (KEY_QUOTA - 5))]!;
    const call = jsonCalls(new Agent({ keepAlive: true, maxSockets: 1 }));
    const port = engine.port;

    const get = async (path: string, auth: boolean) => {
      const answer = await call(port, 'GET', `/v1${path}`, auth ? { authorization: `Bearer ${nextKey()}` } : {});
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer;
    };
    const measure = async (label: string, path: string, auth = true) => {
      for (let i = 0; i < WARM_UP; i++) await get(path, auth); // connections, plan cache, pages in memory
      const ms: number[] = [];
      for (let i = 0; i < REQUESTS; i++) ms.push((await get(path, auth)).ms);
      return figures(label, ms);
    };

    // The totals answered from the counters (migration 110) are the ones count(*) gives.
    const listedTotal = (await get('/transactions', true)).body.pagination.total;
    if (listedTotal !== big) throw new Error(`GET /v1/transactions total ${listedTotal}, count(*) ${big}`);
    const [direct] = await sql<{ approved: number }[]>`select count(*)::int as approved from transactions where status = 'approved'`;
    const shown = (await get('/transparency', false)).body.data.transacoesConcluidas;
    if (shown !== direct!.approved) throw new Error(`GET /v1/transparency transacoesConcluidas ${shown}, count(*) ${direct!.approved}`);

    started = Date.now();
    const results = [await measure('GET /v1/balance', '/balance'), await measure('GET /v1/transactions (page 1)', '/transactions')];
    for (const filters of [{}, ...DEEP_FILTERS]) results.push(await measure(`GET /v1${deepPagePath(filters)}`, deepPagePath(filters)));
    results.push(
      await measure('GET /v1/transactions/{externalId}', '/transactions/ext_11'),
      await measure('GET /v1/meds (page 1)', '/meds'),
      await measure('GET /v1/transparency (warm: cached up to 5 s)', '/transparency', false),
    );
    // Cold: the query the cache holds for 5 s, as the engine runs it when the figures expire.
    const cold: number[] = [];
    const transparency = statements(0).find((s) => s.endpoint.startsWith('transparency'))!.sql;
    for (let i = 0; i < 20; i++) {
      const t = process.hrtime.bigint();
      await sql.unsafe(transparency);
      cold.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    results.push(figures('transparency query (cold: the 1 call in 5 s that computes)', cold));
    await sleep(5_100);
    const coldHttp: number[] = [];
    for (let i = 0; i < 3; i++) {
      coldHttp.push((await get('/transparency', false)).ms);
      await sleep(5_100);
    }
    results.push(figures('GET /v1/transparency (cold, 3 calls 5.1 s apart)', coldHttp));
    console.log(
      `\n${ROWS.toLocaleString('en')} transactions, one caller, ${REQUESTS} sequential requests each (${((Date.now() - started) / 1000).toFixed(0)} s):`,
    );
    for (const r of results)
      console.log(
        `  ${r.label.padEnd(62)} p50 ${r.p50.toFixed(1).padStart(7)} ms   p99 ${r.p99.toFixed(1).padStart(7)} ms${r.over ? `   > ${TARGET_P99_MS} ms` : ''}`,
      );

    console.log('\nPlans (EXPLAIN (ANALYZE, BUFFERS)):');
    for (const { endpoint, sql: text } of statements((DEEP_PAGE - 1) * 20)) {
      const plan = await sql.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${text}`);
      console.log(`\n-- ${endpoint}\n${text}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  } finally {
    await engine?.stop(); // drops the engine's own (unused) database name, not ours
    await sql.end();
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
  }
}

await main();
