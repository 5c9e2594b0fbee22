// Charges on a bcb-api-pix route against the conformance fake PSP (test/helpers/fake-psp): the PSP calls
// each paid charge costs (read from the fake's request log: OAuth tokens, PUT /cob, GET /cob, …; the
// token is fetched once and reused) and the time from the PSP's webhook to `approved`. The engine runs
// as its own process (embedded Temporal dev server, fresh PostgreSQL database) with a routes file
// naming the fake and its PSP webhook listener on HTTPS with mTLS. Each charge is created, paid at the
// fake and announced by the fake's webhook (with its client certificate), CONCURRENCY at a time; the
// time runs from the webhook sent to the engine's approval (the transaction's `updated_at`, set in the
// settlement's PostgreSQL transaction; same host clock).
//
//   node --import tsx bench/psp.ts [N=200] [CONCURRENCY=1]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '../src/db/database.js';
import { txidOf } from '../src/pix-routes/bcb-api-pix/ids.js';
import { engineOnFakePsp, startFakePsp } from '../test/helpers/fake-psp/index.js';
import { startEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

const N = Number(process.argv[2] ?? 200);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const WARMUP = 10;
/** Charges per API key, below the 100-per-minute quota. */
const CHARGES_PER_KEY = 90;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const call = jsonCalls(agent);

/** What a PSP request was, for the count per paid charge. */
function kind(request: { method: string; path: string }): string {
  const path = request.path
    .replace(/\/(txn|out)[0-9a-f]{24}/, '/{id}')
    .replace(/\/E[0-9A-Za-z]{31}/, '/{e2eid}')
    .replace(/\/webhook\/[^/]+$/, '/webhook/{chave}');
  return `${request.method} ${path}`;
}

async function main() {
  const psp = await startFakePsp();
  const { listenerUrl, env } = await engineOnFakePsp(psp);
  const engine = await startEngine(env);
  const sql = connect(engine.databaseUrl, { max: 2 });
  const { port, adminPort, adminHeaders } = engine;
  try {
    const account = (
      await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
        name: 'Bench PSP',
        document: '11222333000181',
        email: 'bench@example.com',
        kycStatus: 'approved',
        route: 'psp',
      })
    ).body.data;
    if (!account?.id) throw new Error('account creation failed');
    const total = N + WARMUP;
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil(total / CHARGES_PER_KEY); i += 1) {
      keys.push(
        (await call(adminPort, 'POST', `/admin/accounts/${account.id}/api-keys`, adminHeaders, { permissions: ['payments:write'] })).body
          .data.key,
      );
    }
    const requestsBefore = psp.requests.length;
    const tokensBefore = psp.tokensIssued;

    const sentAtMs = new Map<string, number>();
    const measured: string[] = [];
    let next = 0;
    const started = Date.now();
    async function payer() {
      for (let i = next++; i < total; i = next++) {
        const charge = await call(
          port,
          'POST',
          '/v1/transactions',
          { authorization: `Bearer ${keys[Math.floor(i / CHARGES_PER_KEY)]}`, 'idempotency-key': `bench-psp-${i}` },
          {
            amount: 10 + (i % 50),
            payer: { name: 'Maria da Silva', document: '52998224725' },
          },
        );
        if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
        const id = charge.body.data.id as string;
        const { endToEndId } = psp.pay(txidOf(id));
        sentAtMs.set(id, Date.now());
        const status = await psp.sendWebhook({ url: `${listenerUrl}/pix`, endToEndIds: [endToEndId] });
        if (status !== 200) throw new Error(`webhook for ${id} answered ${status}`);
        for (;;) {
          const [row] = await sql<{ status: string }[]>`select status from transactions where id = ${id}`;
          if (row?.status === 'approved') break;
          await sleep(20);
        }
        if (i >= WARMUP) measured.push(id);
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, payer));
    const seconds = (Date.now() - started) / 1000;

    const rows = await sql<
      { id: string; updatedAt: Date }[]
    >`select id, updated_at as "updatedAt" from transactions where id = any(${measured})`;
    const latencies = rows.map((row) => row.updatedAt.getTime() - sentAtMs.get(row.id)!).sort((a, b) => a - b);

    const requests = psp.requests.slice(requestsBefore);
    const kinds = new Map<string, number>();
    for (const request of requests) kinds.set(kind(request), (kinds.get(kind(request)) ?? 0) + 1);
    const tokens = psp.tokensIssued - tokensBefore;
    const nonConforming = requests.filter((r) => !r.conforms).length;

    console.log(
      `${N} charges paid on the PSP route (after ${WARMUP} warm-up), ${CONCURRENCY} in flight, ${(total / seconds).toFixed(1)} charges/s`,
    );
    console.log(
      `PSP calls per paid charge: ${(requests.length / total).toFixed(2)} (${requests.length} calls for ${total} charges; ${nonConforming} not conforming to the standard)`,
    );
    for (const [name, count] of [...kinds].sort((a, b) => b[1] - a[1]))
      console.log(`  ${name.padEnd(40)} ${String(count).padStart(6)}   ${(count / total).toFixed(2)} per charge`);
    console.log(`OAuth tokens issued during the run: ${tokens} (${psp.tokensIssued} since start: the token is reused)`);
    console.log(`psp webhook -> approved p50 ${quantile(latencies, 0.5)} ms p99 ${quantile(latencies, 0.99)} ms`);
    console.log(`  max ${latencies.at(-1)} ms`);
  } finally {
    agent.destroy();
    await sql.end({ timeout: 5 });
    await engine.stop();
    await psp.close();
  }
}

await main();
