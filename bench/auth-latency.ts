// Added latency of authentication + rate limiting per request: N sequential GET /v1/balance (API key
// lookup, IP/account/permission/KYC checks, quota upsert, then the balance read) against N sequential
// GET /healthz (no key, no quota) of the same engine process, interleaved so both see the same conditions.
//
//   node --import tsx bench/auth-latency.ts [N=2000]
//
// Starts its own engine (`src/main.ts all`, embedded Temporal dev server) on free ports and a fresh
// PostgreSQL database (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432), dropped at the end.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../src/db/database.js';
import { freePort } from '../test/helpers/ports.js';

const N = Number(process.argv[2] ?? 2000);
const WARMUP = 200;
/** Each key gets at most this many calls, below the 100-per-minute quota, so no request is a 429. */
const CALLS_PER_KEY = 90;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function call(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), ms });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

async function main() {
  const [port, adminPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const database = `pix_bench_${randomBytes(4).toString('hex')}`;
  const token = randomBytes(16).toString('hex');
  const engine = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'all'], {
    cwd: ROOT,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: token,
      DATABASE_URL: `${PG}/${database}`,
      TEMPORAL_ADDRESS: '',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pix-bench-')),
      LOG_LEVEL: 'warn',
    },
  });
  try {
    const deadline = Date.now() + 90_000;
    while ((await call(port, 'GET', '/readyz').catch(() => ({ status: 0 }))).status !== 200) {
      if (Date.now() > deadline || engine.exitCode !== null) throw new Error('engine did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    const adminHeaders = { authorization: `Bearer ${token}` };
    const account = await call(adminPort, 'POST', '/admin/accounts', adminHeaders, { name: 'Bench', document: '52998224725', email: 'bench@example.com', kycStatus: 'approved' });
    const keys: string[] = [];
    for (let i = 0; i < Math.ceil((N + WARMUP) / CALLS_PER_KEY); i += 1) {
      keys.push((await call(adminPort, 'POST', `/admin/accounts/${account.body.data.id}/api-keys`, adminHeaders, { permissions: ['balance:read'] })).body.data.key);
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
    const row = (name: string, s: number[]) => `${name.padEnd(30)} median ${quantile(s, 0.5).toFixed(3)} ms   p99 ${quantile(s, 0.99).toFixed(3)} ms`;
    console.log(`${N} sequential requests each (after ${WARMUP} warm-up), one keep-alive connection`);
    console.log(row('GET /healthz (no auth)', open));
    console.log(row('GET /v1/balance (auth + quota)', guarded));
    console.log(
      `${'difference'.padEnd(30)} median ${(quantile(guarded, 0.5) - quantile(open, 0.5)).toFixed(3)} ms   p99 ${(quantile(guarded, 0.99) - quantile(open, 0.99)).toFixed(3)} ms`,
    );
  } finally {
    engine.kill('SIGTERM');
    await new Promise((r) => engine.once('exit', r));
    agent.destroy();
    const admin = connect(`${PG}/postgres`, { max: 1 });
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
  }
}

await main();
