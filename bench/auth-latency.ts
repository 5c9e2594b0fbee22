// Added latency of authentication + rate limiting per request: N sequential GET /v1/balance (API key
// lookup, IP/account/permission/KYC checks, quota upsert, then the balance read) against N sequential
// GET /healthz (no key, no quota) of the same engine process, interleaved so both see the same conditions.
//
//   node --import tsx bench/auth-latency.ts [N=2000]
//
// Starts its own engine (`src/main.ts all`, embedded Temporal dev server) on free ports and a fresh
// PostgreSQL database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432), dropped at the end.
import { Agent } from 'node:http';
import { startEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 200;
/** Each key gets at most this many calls, below the 100-per-minute quota, so no request is a 429. */
const CALLS_PER_KEY = 90;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const call = jsonCalls(agent);

async function main() {
  const { port, adminPort, adminHeaders, stop } = await startEngine();
  try {
    const account = await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
      name: 'Bench',
      document: '52998224725',
      email: 'bench@example.com',
      kycStatus: 'approved',
    });
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil((N + WARMUP) / CALLS_PER_KEY); i += 1) {
      keys.push(
        (await call(adminPort, 'POST', `/admin/accounts/${account.body.data.id}/api-keys`, adminHeaders, { permissions: ['balance:read'] }))
          .body.data.key,
      );
    }

    const guarded: number[] = [];
    const open: number[] = [];
    for (let i = 0; i < N + WARMUP; i += 1) {
      const health = await call(port, 'GET', '/healthz');
      const balance = await call(port, 'GET', '/v1/balance', { authorization: `Bearer ${keys[Math.floor(i / CALLS_PER_KEY)]}` });
      if (health.status !== 200 || balance.status !== 200) throw new Error(`unexpected status ${health.status} / ${balance.status}`);
      if (i >= WARMUP) {
        open.push(health.ms);
        guarded.push(balance.ms);
      }
    }
    guarded.sort((a, b) => a - b);
    open.sort((a, b) => a - b);
    const row = (name: string, s: number[]) =>
      `${name.padEnd(30)} median ${quantile(s, 0.5).toFixed(3)} ms   p99 ${quantile(s, 0.99).toFixed(3)} ms`;
    console.log(`${N} sequential requests each (after ${WARMUP} warm-up), one keep-alive connection`);
    console.log(row('GET /healthz (no auth)', open));
    console.log(row('GET /v1/balance (auth + quota)', guarded));
    console.log(
      `${'difference'.padEnd(30)} median ${(quantile(guarded, 0.5) - quantile(open, 0.5)).toFixed(3)} ms   p99 ${(quantile(guarded, 0.99) - quantile(open, 0.99)).toFixed(3)} ms`,
    );
  } finally {
    agent.destroy();
    await stop();
  }
}

await main();
