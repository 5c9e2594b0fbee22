// Statements with data (books.md, "Statements"): one account with BENCH_ROWS paid charges (default
// 300,000) over 31 days, each a charge and a fee entry, one in ten with a split share to another account,
// seeded straight into PostgreSQL; then, against the engine over HTTP:
//   - GET /v1/statement: page 1 and the last page (limit 100) of windows of 1, 7 and 31 days, median of 5;
//   - GET /admin/accounts/{id}/statement over the 31 days as CSV and as JSON: time, size, entries per
//     second and the engine's peak RSS while it streams (BENCH_ENGINE_NODE_ARGS="--max-old-space-size=160"
//     shows that what it streams is not held: the heap stays under the cap whatever the length).
import { readFileSync } from 'node:fs';
import { connect, type Sql } from '../src/db/database.js';
import { startEngine } from './engine.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const BIG = 'acc_bench_big';
const RECIPIENT = 'acc_bench_split';
const DAY_MS = 86_400_000;
const RUNS = 5;

/** Postings as a paid charge of 100.00 makes them: fee 2.00, and every tenth 10.00 to the recipient. */
async function seed(sql: Sql): Promise<void> {
  await sql`
    insert into accounts (id, name, document, email, kyc_status, duplicate_allowed)
    values (${BIG}, 'Loja Grande', '11222333000181', 'grande@example.com', 'approved', true),
           (${RECIPIENT}, 'Parceira', '11222333000181', 'parceira@example.com', 'approved', true)`;
  await sql.begin(async (tx) => {
    await tx`set local synchronous_commit = off`;
    await tx`create temporary table seeded on commit drop as
      select g, 'txn_' || lpad(g::text, 10, '0') as id, now() - (${ROWS} - g) * (interval '31 days' / ${ROWS}) as at,
             case when g % 10 = 0 then 1000 else 0 end as share
        from generate_series(1, ${ROWS}) g`;
    await tx`
      insert into transactions (id, account_id, external_id, direction, type, method, status, acquirer, amount, fee, net_amount,
                                split_amount, fingerprint, payer, expires_at, approved_at, created_at, updated_at)
      select id, ${BIG}, 'ext_' || g, 'in', 'payment', 'pix', 'approved', 'simulator', 10000, 200, 9800 - share, share, 'bench',
             '{"name":"Maria da Silva","document":"52998224725"}'::jsonb, at + interval '15 minutes', at, at, at
        from seeded`;
    await tx`
      insert into ledger_postings (id, posting_key, transaction_id, description, created_at)
      select g, 'charge:' || id || ':settle', id, 'Cobrança Pix paga', at from seeded`;
    await tx`
      insert into ledger_entries (posting_id, ledger_account_id, amount, created_at)
      select g, e.account, e.amount, at
        from seeded, lateral (values ('platform:pix_clearing:00', -10000), ('platform:fee_revenue:00', 200),
                                     (${`${RECIPIENT}:available`}, share), (${`${BIG}:available`}, 9800 - share)) e(account, amount)
       where e.amount <> 0
       order by g`;
    await tx`select setval('ledger_postings_id_seq', ${ROWS})`;
    await tx`
      insert into ledger_accounts (id, owner_id, kind, balance)
      select ledger_account_id, nullif(split_part(ledger_account_id, ':', 1), 'platform'), split_part(ledger_account_id, ':', 2), sum(amount)
        from ledger_entries group by ledger_account_id`;
  });
  // As autovacuum would after the load: statistics and the visibility map (index-only scans).
  await sql`vacuum analyze`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const engine = await startEngine();
  const sql = connect(engine.databaseUrl, { max: 2 });
  try {
    console.log(`seeding ${ROWS.toLocaleString('en')} paid charges over 31 days…`);
    await seed(sql);
    const keyAnswer = await fetch(`http://127.0.0.1:${engine.adminPort}/admin/accounts/${BIG}/api-keys`, {
      method: 'POST',
      headers: { ...engine.adminHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: ['balance:read'] }),
    });
    const key = ((await keyAnswer.json()) as { data: { key: string } }).data.key;
    const to = new Date(Date.now() + 60_000);
    const window = (days: number) => `from=${new Date(to.getTime() - days * DAY_MS).toISOString()}&to=${to.toISOString()}`;

    console.log('\nGET /v1/statement (median of 5)');
    for (const days of [1, 7, 31]) {
      const timed = async (page: number) => {
        const ms: number[] = [];
        let body: any;
        for (let i = 0; i < RUNS; i += 1) {
          const started = performance.now();
          const res = await fetch(`http://127.0.0.1:${engine.port}/v1/statement?${window(days)}&limit=100&page=${page}`, {
            headers: { authorization: `Bearer ${key}` },
          });
          body = await res.json();
          ms.push(performance.now() - started);
          if (res.status !== 200) throw new Error(`GET /v1/statement answered ${res.status}: ${JSON.stringify(body)}`);
        }
        return { ms: median(ms), body };
      };
      const first = await timed(1);
      const last = await timed(first.body.pagination.pages);
      console.log(
        `  ${String(days).padStart(2)} day${days === 1 ? ' ' : 's'}, ${first.body.pagination.total.toLocaleString('en').padStart(9)} entries: page 1 ${first.ms.toFixed(0)} ms, last page ${last.ms.toFixed(0)} ms`,
      );
    }

    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${engine.pid}/status`, 'utf8'))![1]) / 1024;
    console.log('\nGET /admin/accounts/{id}/statement, 31 days');
    for (const accept of ['text/csv', 'application/json']) {
      const before = rssMb();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${engine.adminPort}/admin/accounts/${BIG}/statement?${window(31)}`, {
        headers: { ...engine.adminHeaders, accept },
      });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const entries = accept === 'text/csv' ? lines - 1 : null;
      console.log(
        `  ${accept.padEnd(16)} ${res.status}, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s${entries === null ? '' : ` (${entries.toLocaleString('en')} entries, ${Math.round(entries / seconds).toLocaleString('en')}/s)`}; engine RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most`,
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
    await engine.stop();
  }
}

await main();
