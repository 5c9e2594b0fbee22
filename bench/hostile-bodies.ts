// What hostile request bodies cost everyone else: /healthz and charge-creation latency with no hostile
// load, then while HOSTILE_CONNECTIONS (8) clients send 1 MB JSON bodies back to back, each body one of
// several shapes (the security probe's 28 objects around 1000 arrays of 330 empty strings, nested
// arrays, many short strings, many keys, long strings of escapes, unicode, the most values the edge
// lets through, also with keys spelled in escapes) to /mcp, POST /v1/transactions and the admin API, with and without valid credentials.
//
//   npm run bench:hostile [-- SECONDS=20]
//
// Targets met when, under the hostile load, /healthz p99 stays under 100 ms and every charge creation
// under 1 s. Starts its own engine (bench/engine.ts) on a fresh database, dropped at the end.
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { spawnProcess } from './child-process.js';
import { startEngine } from './engine.js';
import { checkJsonShape, checkRawJson } from '../src/http/json-shape.js';
import { checkDuplicateKeys } from '../src/http/duplicate-keys.js';
import { jsonCalls, printTable, processCpuMs, quantile } from './measure.js';

const SECONDS = Number(process.argv[2] ?? 20);
const BASELINE_SECONDS = Math.max(5, Math.round(SECONDS / 2));
const HOSTILE_CONNECTIONS = 8;
/** The argument that makes this file the hostile clients' process. */
const HOSTILE_LOAD = '--hostile-load';
const BODY_LIMIT = 1024 * 1024;
const CHARGE_BODY = {
  amount: 49.9,
  payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
  description: 'bench',
};
/** Calls per API key, under the 100-per-minute quota. */
const CALLS_PER_KEY = 90;

const list = (count: number, item: string) => `[${Array(count).fill(item).join(',')}]`;
/** `unit` repeated, comma-separated in a list, to just under the body limit. */
const filled = (unit: string) => list(Math.floor((BODY_LIMIT - 2) / (Buffer.byteLength(unit) + 1)), unit);

const SHAPES: Record<string, string> = {
  probe: `${'{"a":'.repeat(28)}${list(1000, list(330, '""'))}${'}'.repeat(28)}`,
  'nested arrays': filled(`${'['.repeat(30)}${']'.repeat(30)}`),
  'short strings': list(1000, list(260, '"x"')),
  'many keys': list(1000, `{${Array.from({ length: 90 }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  escapes: `["${'\\u00e9\\"\\\\'.repeat(Math.floor((BODY_LIMIT - 4) / 10))}"]`,
  unicode: `["${'é😀ação'.repeat(Math.floor((BODY_LIMIT - 4) / 12))}"]`,
  // Just under the edge's 10,000 values, of the kind JSON.parse builds slowest (keys of wide objects): parsed and walked in full.
  'most values allowed': list(9, `{${Array.from({ length: 999 }, (_, i) => `"${'k'.repeat(90)}${i}":${i}`).join(',')}}`),
  // The same with every key spelled in escapes, the costliest for the repeated-key scan (each key decoded).
  'escaped keys allowed': list(9, `{${Array.from({ length: 999 }, (_, i) => `"${'\\u006b'.repeat(15)}${i}":${i}`).join(',')}}`),
};

interface Target {
  label: string;
  port: number;
  path: string;
  /** Authorization header, or null for none. */
  auth: () => string | null;
}

interface Sample {
  ms: number;
  status: number;
}

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN };
};

/** One body POSTed on its own connection; the status, or 0 when the connection broke first (the server may answer and close before it has read it all). */
function sendBody(port: number, path: string, authorization: string | null, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': body.length,
      accept: 'application/json, text/event-stream',
      'idempotency-key': `hostile-${Math.random()}`,
    };
    if (authorization) headers.authorization = authorization;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', () => resolve(res.statusCode!));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

function hostileBodies(): Array<{ name: string; bytes: Buffer }> {
  return Object.entries(SHAPES).map(([name, text]) => {
    const bytes = Buffer.from(text);
    if (bytes.length > BODY_LIMIT) throw new Error(`shape ${name} is ${bytes.length} bytes, over the limit`);
    return { name, bytes };
  });
}

interface HostileParams {
  apiPort: number;
  adminPort: number;
  adminAuthorization: string;
  /** Valid API keys of the hostile account. */
  keys: string[];
  until: number;
}

interface HostileResult {
  sent: number;
  /** Per target, [status, count] pairs. */
  answers: Array<[string, Array<[number, number]>]>;
}

/** HOSTILE_CONNECTIONS clients sending bodies back to back until `until`, cycling through targets and shapes. */
async function hostileLoad({ apiPort, adminPort, adminAuthorization, keys, until }: HostileParams): Promise<HostileResult> {
  let calls = 0;
  const validKey = () => `Bearer ${keys[calls++ % keys.length]}`;
  const targets: Target[] = [
    { label: 'POST /mcp, no key', port: apiPort, path: '/mcp', auth: () => null },
    { label: 'POST /mcp, wrong key', port: apiPort, path: '/mcp', auth: () => 'Bearer sk_test_0000000000000000000000000000000000000000' },
    { label: 'POST /mcp, valid key', port: apiPort, path: '/mcp', auth: validKey },
    { label: 'POST /v1/transactions, no key', port: apiPort, path: '/v1/transactions', auth: () => null },
    { label: 'POST /v1/transactions, valid key', port: apiPort, path: '/v1/transactions', auth: validKey },
    { label: 'POST /admin/accounts, no token', port: adminPort, path: '/admin/accounts', auth: () => null },
    { label: 'POST /admin/accounts, token', port: adminPort, path: '/admin/accounts', auth: () => adminAuthorization },
  ];
  const bodies = hostileBodies();
  const answers = new Map<string, Map<number, number>>();
  let sent = 0;
  await Promise.all(
    Array.from({ length: HOSTILE_CONNECTIONS }, async (_, client) => {
      for (let i = client; Date.now() < until; i += HOSTILE_CONNECTIONS) {
        const target = targets[i % targets.length]!;
        const body = bodies[Math.floor(i / targets.length) % bodies.length]!;
        const status = await sendBody(target.port, target.path, target.auth(), body.bytes);
        sent += 1;
        const byStatus = answers.get(target.label) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        answers.set(target.label, byStatus);
      }
    }),
  );
  return { sent, answers: [...answers].map(([label, byStatus]) => [label, [...byStatus]]) };
}

/** The ms `work` takes, the median of `runs` after one warm-up run, and what it threw (the refusal's message) if anything. */
function timedCheck(work: () => void, runs = 5): { ms: number; refusal: string | null } {
  const times: number[] = [];
  let refusal: string | null = null;
  for (let run = 0; run <= runs; run++) {
    const started = performance.now();
    try {
      work();
    } catch (err) {
      refusal = (err as Error).message;
    }
    if (run > 0) times.push(performance.now() - started);
  }
  return {
    ms: quantile(
      times.sort((a, b) => a - b),
      0.5,
    ),
    refusal,
  };
}

/** The edge's checks of each shape in this process, what the engine's main thread spends on a body once it is read. */
function printEdgeChecks(): void {
  const rows = hostileBodies().map(({ name, bytes }) => {
    const decode = timedCheck(() => bytes.toString('utf8'));
    const raw = bytes.toString('utf8');
    const scan = timedCheck(() => checkRawJson(raw));
    let parsed: unknown;
    const parse = scan.refusal ? null : timedCheck(() => (parsed = JSON.parse(raw)));
    const walk = scan.refusal ? null : timedCheck(() => checkJsonShape(parsed));
    const keys = scan.refusal || walk?.refusal ? null : timedCheck(() => checkDuplicateKeys(raw));
    const total = decode.ms + scan.ms + (parse?.ms ?? 0) + (walk?.ms ?? 0) + (keys?.ms ?? 0);
    const cell = (check: { ms: number } | null) => (check ? check.ms.toFixed(2) : '-');
    const outcome = scan.refusal ?? walk?.refusal ?? keys?.refusal ?? 'passes';
    return [name, cell(decode), cell(scan), cell(parse), cell(walk), cell(keys), total.toFixed(2), outcome];
  });
  console.log('the edge checks alone, per body (median of 5, ms)');
  printTable(['shape', 'utf-8', 'scan', 'parse', 'walk', 'keys', 'total', 'outcome'], rows);
  console.log('');
}

async function main() {
  printEdgeChecks();
  const engine = await startEngine();
  const agent = new Agent({ keepAlive: true, maxSockets: 2 });
  const call = jsonCalls(agent);
  try {
    const admin = async (path: string, body: unknown) => {
      const res = await call(engine.adminPort, 'POST', path, engine.adminHeaders, body);
      if (res.status !== 201) throw new Error(`admin ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data;
    };
    const keysOf = async (name: string, count: number) => {
      const account = await admin('/admin/accounts', {
        name,
        document: '11222333000181',
        allowDuplicate: true,
        email: `${name.replace(/\W/g, '')}@example.com`,
        kycStatus: 'approved',
      });
      const keys: string[] = [];
      for (let i = 0; i < count; i++)
        keys.push((await admin(`/admin/accounts/${account.id}/api-keys`, { permissions: ['payments:write', 'balance:read'] })).key);
      return keys;
    };
    // Probe keys enough for both phases at one charge every 100 ms; hostile keys on another account, so their quota is theirs.
    const probeKeys = await keysOf('Loja Sonda', Math.ceil(((SECONDS + BASELINE_SECONDS) * 10) / CALLS_PER_KEY) + 2);
    const hostileKeys = await keysOf('Loja Hostil', 10);
    /** A probe's call; a broken connection counts as an answer of status 0 at the time it broke. */
    const timed = async (...args: Parameters<typeof call>): Promise<Sample> => {
      const started = performance.now();
      try {
        const res = await call(...args);
        return { ms: res.ms, status: res.status };
      } catch {
        return { ms: performance.now() - started, status: 0 };
      }
    };
    let probeCalls = 0;
    /** /healthz every 20 ms and a charge every 100 ms, sequentially each, until `until`. */
    const probe = async (until: number) => {
      const healthz: Sample[] = [];
      const charges: Sample[] = [];
      const healthLoop = (async () => {
        while (Date.now() < until) {
          healthz.push(await timed(engine.port, 'GET', '/healthz'));
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const chargeLoop = (async () => {
        while (Date.now() < until) {
          const key = probeKeys[Math.floor(probeCalls / CALLS_PER_KEY)]!;
          probeCalls += 1;
          charges.push(
            await timed(
              engine.port,
              'POST',
              '/v1/transactions',
              { authorization: `Bearer ${key}`, 'idempotency-key': `probe-${probeCalls}` },
              CHARGE_BODY,
            ),
          );
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      await Promise.all([healthLoop, chargeLoop]);
      return { healthz, charges };
    };

    let cpuAt = processCpuMs(engine.pid);
    const baseline = await probe(Date.now() + BASELINE_SECONDS * 1000);
    const baselineCpuPerS = (processCpuMs(engine.pid) - cpuAt) / BASELINE_SECONDS;
    cpuAt = processCpuMs(engine.pid);

    const hostileUntil = Date.now() + SECONDS * 1000;
    // The hostile clients in a process of their own, so that their sending never delays the probes' clocks.
    const params: HostileParams = {
      apiPort: engine.port,
      adminPort: engine.adminPort,
      adminAuthorization: engine.adminHeaders.authorization,
      keys: hostileKeys,
      until: hostileUntil,
    };
    const loader = await spawnProcess(
      [fileURLToPath(import.meta.url), HOSTILE_LOAD],
      { HOSTILE_PARAMS: JSON.stringify(params) },
      async (output) => output().includes('hostile load running'),
    );
    let loaderOutput = '';
    loader.stdout!.on('data', (chunk: Buffer) => (loaderOutput += chunk.toString()));
    const closed = once(loader, 'close');
    const underLoad = await probe(hostileUntil);
    await closed;
    const { sent, answers } = JSON.parse(/^RESULT (.*)$/m.exec(loaderOutput)![1]!) as HostileResult;
    const hostileCpuPerS = (processCpuMs(engine.pid) - cpuAt) / SECONDS;

    const row = (label: string, samples: Sample[], ok: number) => {
      const s = stats(samples.map((x) => x.ms));
      const failed = samples.filter((x) => x.status !== ok).length;
      return [label, String(s.n), s.p50.toFixed(1), s.p99.toFixed(1), s.max.toFixed(1), String(failed)];
    };
    console.log(
      `${HOSTILE_CONNECTIONS} concurrent hostile bodies of up to 1 MB for ${SECONDS} s (${sent} sent, ${(sent / SECONDS).toFixed(1)}/s; baseline ${BASELINE_SECONDS} s without)`,
    );
    console.log(
      `engine CPU: ${baselineCpuPerS.toFixed(0)} ms/s without, ${hostileCpuPerS.toFixed(0)} ms/s with the hostile load: ` +
        `about ${(((hostileCpuPerS - baselineCpuPerS) * SECONDS) / sent).toFixed(2)} ms per hostile body (all the engine's threads)`,
    );
    console.log(
      `shapes: ${hostileBodies()
        .map((b) => `${b.name} (${Math.round(b.bytes.length / 1024)} kB)`)
        .join(', ')}`,
    );
    printTable(
      ['probe', 'n', 'p50 ms', 'p99 ms', 'max ms', 'not 2xx'],
      [
        row('GET /healthz, no hostile load', baseline.healthz, 200),
        row('GET /healthz, hostile load', underLoad.healthz, 200),
        row('charge creation, no hostile load', baseline.charges, 201),
        row('charge creation, hostile load', underLoad.charges, 201),
      ],
    );
    printTable(
      ['hostile target', 'answers by status (0: connection closed first)'],
      answers.map(([label, byStatus]) => [
        label,
        byStatus
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${status}×${n}`)
          .join(' '),
      ]),
    );
    const healthP99 = stats(underLoad.healthz.map((x) => x.ms)).p99;
    const chargeMax = stats(underLoad.charges.map((x) => x.ms)).max;
    console.log(
      `\ntargets: /healthz p99 ${healthP99.toFixed(1)} ms (< 100: ${healthP99 < 100 ? 'met' : 'NOT met'}), charge creation max ${chargeMax.toFixed(1)} ms (< 1000: ${chargeMax < 1000 ? 'met' : 'NOT met'})`,
    );
  } finally {
    agent.destroy();
    await engine.stop();
  }
}

if (process.argv[2] === HOSTILE_LOAD) {
  console.log('hostile load running');
  console.log(`RESULT ${JSON.stringify(await hostileLoad(JSON.parse(process.env.HOSTILE_PARAMS!) as HostileParams))}`);
} else await main();
