// What tracing costs the engine, and what sampling saves of it (issue 32). The engine (bench/engine.ts)
// runs once per mode on one Temporal dev server: tracing off, on with 10 % of traces sampled
// (OTEL_TRACES_SAMPLER=parentbased_traceidratio, OTEL_TRACES_SAMPLER_ARG=0.1) and on with every trace
// (parentbased_always_on), its spans sent to a local OTLP/HTTP sink that counts and discards them. Each
// mode gets the same closed loop of paid charges: CONCURRENCY loops, each creating a charge with a
// `webhookUrl`, paying it through the simulator and waiting for its signed `transaction.approved` at a
// local receiver, so that every traced step runs (API, update-with-start, workflow, activities, ledger,
// webhook POST). The engine's CPU is read from /proc (bench/process-cpu.ts) over the N measured charges
// and the EXPORT_WAIT_MS after them, in which the last batch of spans is exported (OTEL_BSP_SCHEDULE_DELAY
// is shorter); the same wait in every mode. ROUNDS repeats the three modes in turn and adds the figures up.
//
//   npm run bench:tracing [N=300] [CONCURRENCY=8] [ROUNDS=1]
//
// Prints per mode the charges per second, engine CPU-ms per charge, spans exported per charge and the
// webhooks that came in a sampled trace, the CPU table of every process, then
// `tracing overhead at 10% sampling: N %` and `tracing overhead at 100% sampling: M %` (engine CPU per
// charge above tracing off; target at 10 %: ≤ 10 %).
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away databases go.
import { once } from 'node:events';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchDevServer } from './dev-server.js';
import { startEngine, type BenchEngine } from './engine.js';
import { jsonCalls, printTable } from './measure.js';
import { bearerTokens } from './merchants.js';
import { measureCpu, printCpuTable, type CpuUse } from './process-cpu.js';

const N = Number(process.argv[2] ?? 300);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.argv[4] ?? 1);
const WARMUP = 40;
/** Charges per API key, below the 100-per-minute quota. */
const CHARGES_PER_KEY = 90;
const EXPORT_WAIT_MS = 1500;
const TARGET_OVERHEAD_AT_10 = 0.1;

interface Mode {
  label: string;
  env: (sink: string) => Record<string, string>;
}

const traced = (sampler: Record<string, string>) => (sink: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: sink,
  OTEL_BSP_SCHEDULE_DELAY: '500',
  ...sampler,
});

const MODES: Mode[] = [
  { label: 'tracing off', env: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }) },
  {
    label: 'tracing on, 10% sampling',
    env: traced({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  },
  { label: 'tracing on, 100% sampling', env: traced({ OTEL_TRACES_SAMPLER: 'parentbased_always_on', OTEL_TRACES_SAMPLER_ARG: '' }) },
];

/** An OTLP/HTTP collector that counts the spans it is sent and keeps none. */
async function startSpanSink() {
  let spans = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** The webhook receiver: resolves the waiter of each charge when its `transaction.approved` has arrived; counts the sampled ones. */
async function startWebhookReceiver() {
  const waiters = new Map<string, () => void>();
  let sampled = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (event.event !== 'transaction.approved') return;
      if (String(req.headers.traceparent ?? '').endsWith('-01')) sampled += 1;
      waiters.get(event.data.id)?.();
      waiters.delete(event.data.id);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    delivered: (id: string) => new Promise<void>((resolve) => waiters.set(id, resolve)),
    sampled: () => sampled,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

interface ModeFigures {
  charges: number;
  loadMs: number;
  cpu: CpuUse[];
  spans: number;
  sampledWebhooks: number;
}

/** Merchants with enough API keys for `charges` under the quota, and a `pay(i)` that creates, pays and awaits the webhook of charge i. */
async function paidChargeLoop(engine: BenchEngine, receiver: WebhookReceiver, charges: number, run: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });
  const call = jsonCalls(agent);
  const keys = await bearerTokens(`http://127.0.0.1:${engine.adminPort}/admin`, engine.adminHeaders, Math.ceil(charges / CHARGES_PER_KEY));
  const pay = async (i: number) => {
    const charge = await call(
      engine.port,
      'POST',
      '/v1/transactions',
      { authorization: `Bearer ${keys[Math.floor(i / CHARGES_PER_KEY)]}`, 'idempotency-key': `bench-${run}-${i}` },
      { amount: 10 + (i % 50), payer: { name: 'Maria da Silva', document: '52998224725' }, webhookUrl: receiver.url },
    );
    if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
    const delivered = receiver.delivered(charge.body.data.id);
    const paid = await call(engine.adminPort, 'POST', `/admin/simulator/charges/${charge.body.data.id}/pay`, engine.adminHeaders);
    if (paid.status !== 200) throw new Error(`pay ${charge.body.data.id} answered ${paid.status}`);
    await delivered;
  };
  /** Charges `from` to `to` - 1, CONCURRENCY at a time. */
  const loop = async (from: number, to: number) => {
    let next = from;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < to; i = next++) await pay(i);
      }),
    );
  };
  return { loop, close: () => agent.destroy() };
}

async function runMode(mode: Mode, temporalAddress: string, temporalPort: number, run: string): Promise<ModeFigures> {
  const sink = await startSpanSink();
  const receiver = await startWebhookReceiver();
  const engine = await startEngine({ TEMPORAL_ADDRESS: temporalAddress, WEBHOOK_ALLOW_INSECURE: 'true', ...mode.env(sink.endpoint) });
  const load = await paidChargeLoop(engine, receiver, WARMUP + N, run);
  try {
    await load.loop(0, WARMUP);
    await sleep(EXPORT_WAIT_MS);
    const [spansBefore, sampledBefore] = [sink.spans(), receiver.sampled()];
    const parties = { temporalPort, engine: engine.pid, database: new URL(engine.databaseUrl).pathname.slice(1) };
    let loadMs = 0;
    const [, cpu] = await measureCpu(parties, async () => {
      const started = performance.now();
      await load.loop(WARMUP, WARMUP + N);
      loadMs = performance.now() - started;
      await sleep(EXPORT_WAIT_MS);
    });
    return { charges: N, loadMs, cpu: [cpu], spans: sink.spans() - spansBefore, sampledWebhooks: receiver.sampled() - sampledBefore };
  } finally {
    load.close();
    await engine.stop();
    receiver.close();
    sink.close();
  }
}

const added = (a: ModeFigures, b: ModeFigures): ModeFigures => ({
  charges: a.charges + b.charges,
  loadMs: a.loadMs + b.loadMs,
  cpu: [...a.cpu, ...b.cpu],
  spans: a.spans + b.spans,
  sampledWebhooks: a.sampledWebhooks + b.sampledWebhooks,
});

const engineMsPerCharge = (figures: ModeFigures) => figures.cpu.reduce((sum, cpu) => sum + cpu.engine!, 0) / figures.charges;

async function main() {
  process.stdout.write(
    `tracing bench: ${N} paid charges per mode (after ${WARMUP} of warm-up), ${CONCURRENCY} in flight, ${ROUNDS} round(s) of: ${MODES.map((m) => m.label).join(', ')}\n`,
  );
  const { server: temporalServer, port: temporalPort } = await startBenchDevServer();
  const figures = new Map<Mode, ModeFigures>();
  const cpuRows: { label: string; operations: number; cpu: CpuUse }[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [index, mode] of MODES.entries()) {
        const result = await runMode(mode, temporalServer.address, temporalPort, `${Date.now()}-${round}-${index}`);
        const sum = figures.get(mode);
        figures.set(mode, sum ? added(sum, result) : result);
        cpuRows.push({ label: `${mode.label}${ROUNDS > 1 ? `, round ${round}` : ''}`, operations: result.charges, cpu: result.cpu[0]! });
      }
    }
  } finally {
    await temporalServer.stop();
  }

  printTable(
    ['mode', 'paid charges', 'per s', 'engine CPU-ms per charge', 'spans exported per charge', 'webhooks in a sampled trace'],
    MODES.map((mode) => {
      const f = figures.get(mode)!;
      return [
        mode.label,
        String(f.charges),
        ((f.charges * 1000) / f.loadMs).toFixed(1),
        engineMsPerCharge(f).toFixed(2),
        (f.spans / f.charges).toFixed(1),
        `${f.sampledWebhooks} (${((f.sampledWebhooks / f.charges) * 100).toFixed(0)} %)`,
      ];
    }),
  );
  printCpuTable(cpuRows);
  const off = engineMsPerCharge(figures.get(MODES[0]!)!);
  const overhead = (mode: Mode) => engineMsPerCharge(figures.get(mode)!) / off - 1;
  const at10 = overhead(MODES[1]!);
  process.stdout.write(
    `\ntracing overhead at 10% sampling: ${(at10 * 100).toFixed(1)} %   (target ≤ ${TARGET_OVERHEAD_AT_10 * 100} %: ${at10 <= TARGET_OVERHEAD_AT_10 ? 'met' : 'NOT met'})\n` +
      `tracing overhead at 100% sampling: ${(overhead(MODES[2]!) * 100).toFixed(1)} %\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
