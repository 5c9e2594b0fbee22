// Time from approval to delivered webhook. Creates N charges on a real engine (its own process,
// embedded Temporal dev server, fresh PostgreSQL database), pays them through the simulator with
// CONCURRENCY payments in flight, and measures for each the time from the charge's approval
// (`data.approvedAt` in the delivered body: the instant the network took the payment) to the moment
// a local receiver (node:http on 127.0.0.1) has the whole signed request. Also reported: from the
// moment the operator's pay call was sent. The engine runs with WEBHOOK_ALLOW_INSECURE=true.
// Then N more charges are paid at a sustained RATE per second (open loop: each pay call leaves at its
// scheduled time whatever the earlier ones are doing), and the same figures are reported.
//
// First, on the same Temporal server, the bare baseline of that path (bench/baseline/workflow.ts): N
// waiting workflows of a worker process of their own, each sent a signal and POSTing a signed notice to
// the same receiver from a local activity, one in flight and then at RATE: the floor of signal, one
// workflow task and one POST on this machine. For every run, the CPU each process spent per payment
// (bench/process-cpu.ts).
//
//   npm run bench:webhooks [N=500] [CONCURRENCY=1] [RATE=20]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { paidBaselineSignal, paymentBaselineWorkflow } from './baseline/workflow.js';
import { startBaselineWorker, stopProcess } from './child-process.js';
import { startEngine } from './engine.js';
import { jsonCalls, printTable, quantile } from './measure.js';
import { measureCpu, printCpuTable, type CpuParties, type CpuUse } from './process-cpu.js';

const N = Number(process.argv[2] ?? 500);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const RATE = Number(process.argv[4] ?? 20);
const WARMUP = 20;
/** Charges per API key, below the 100-per-minute quota. */
const CHARGES_PER_KEY = 90;
const TARGET_P50_MS = 50;
const TARGET_P99_MS = 150;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const call = jsonCalls(agent);

interface Received {
  receivedAtMs: number;
  /** The engine's approval instant (`data.approvedAt`); none for the baseline. */
  approvedAtMs?: number;
}

/** The receiver: resolves the waiter of each transaction (or baseline workflow) when its notice has fully arrived. */
async function startReceiver() {
  const waiters = new Map<string, (received: Received) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAtMs = Date.now();
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString());
      if (event.event === 'transaction.approved')
        waiters.get(event.data.id)?.({ receivedAtMs, approvedAtMs: Date.parse(event.data.approvedAt) });
      if (event.event === 'baseline.paid') waiters.get(event.id)?.({ receivedAtMs });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    delivered: (id: string) => new Promise<Received>((resolve) => waiters.set(id, resolve)),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

interface Latencies {
  /** From the approval (engine) or the signal's send (baseline). */
  fromApproval: number[];
  /** From the pay call's send (engine) or the signal's send (baseline). */
  fromSend: number[];
}

interface RunFigures extends Latencies {
  label: string;
  perSecond: number;
}

/** Pays `ids` with `concurrency` in flight, or at `rate` per second when given (open loop); the latencies of each. */
async function payAll(
  ids: string[],
  pay: (id: string) => Promise<{ sentAtMs: number; received: Received }>,
  pace: { concurrency: number } | { rate: number },
) {
  const figures: Latencies = { fromApproval: [], fromSend: [] };
  const one = async (id: string) => {
    const { sentAtMs, received } = await pay(id);
    figures.fromApproval.push(received.receivedAtMs - (received.approvedAtMs ?? sentAtMs));
    figures.fromSend.push(received.receivedAtMs - sentAtMs);
  };
  const started = Date.now();
  if ('rate' in pace) {
    const payments: Promise<void>[] = [];
    for (const [i, id] of ids.entries()) {
      const dueMs = started + (i * 1000) / pace.rate;
      if (dueMs > Date.now()) await new Promise((resolve) => setTimeout(resolve, dueMs - Date.now()));
      payments.push(one(id));
    }
    await Promise.all(payments);
  } else {
    let next = 0;
    await Promise.all(
      Array.from({ length: pace.concurrency }, async () => {
        for (let i = next++; i < ids.length; i = next++) await one(ids[i]!);
      }),
    );
  }
  figures.fromApproval.sort((a, b) => a - b);
  figures.fromSend.sort((a, b) => a - b);
  return { ...figures, perSecond: ids.length / ((Date.now() - started) / 1000) };
}

async function main() {
  const engine = await startEngine({ WEBHOOK_ALLOW_INSECURE: 'true' });
  const { port, adminPort, adminHeaders, temporalAddress } = engine;
  const temporalPort = Number(temporalAddress.split(':').at(-1));
  const receiver = await startReceiver();
  const taskQueue = `baseline-${randomBytes(4).toString('hex')}`;
  const baselineWorker = await startBaselineWorker(temporalAddress, taskQueue);
  const client = new Client({ connection: await Connection.connect({ address: temporalAddress }) });
  const runs: RunFigures[] = [];
  const cpuRows: { label: string; operations: number; cpu: CpuUse }[] = [];
  const measured = async (label: string, parties: CpuParties, ids: string[], run: () => ReturnType<typeof payAll>) => {
    const [figures, cpu] = await measureCpu(parties, run);
    runs.push({ label, ...figures });
    cpuRows.push({ label, operations: ids.length, cpu });
  };
  const inFlight = `${CONCURRENCY} in flight`;
  const sustained = `sustained ${RATE}/s (open loop)`;
  try {
    // The bare baseline: N + WARMUP waiting workflows for each run.
    const baselineIds = (run: string) => Array.from({ length: N + WARMUP }, (_, i) => `baseline-${run}-${i}`);
    const [baselineOne, baselineRate] = [baselineIds('one'), baselineIds('rate')];
    for (const workflowId of [...baselineOne, ...baselineRate])
      await client.workflow.start(paymentBaselineWorkflow, { workflowId, taskQueue, args: [receiver.url] });
    const signal = async (workflowId: string) => {
      const delivered = receiver.delivered(workflowId);
      const sentAtMs = Date.now();
      await client.workflow.getHandle(workflowId).signal(paidBaselineSignal);
      return { sentAtMs, received: await delivered };
    };
    const baselineParties = { temporalPort, baselineWorker: baselineWorker.pid };
    for (const [label, ids, pace] of [
      [inFlight, baselineOne, { concurrency: CONCURRENCY }],
      [sustained, baselineRate, { rate: RATE }],
    ] as const) {
      await payAll(ids.slice(0, WARMUP), signal, { concurrency: CONCURRENCY });
      await measured(`bare baseline, ${label}`, baselineParties, ids.slice(WARMUP), () => payAll(ids.slice(WARMUP), signal, pace));
    }
    await stopProcess(baselineWorker);

    const account = (
      await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
        name: 'Bench Webhooks',
        document: '11222333000181',
        email: 'bench@example.com',
        kycStatus: 'approved',
      })
    ).body.data;
    const endpoint = await call(adminPort, 'POST', `/admin/accounts/${account.id}/webhook-endpoints`, adminHeaders, { url: receiver.url });
    if (endpoint.status !== 201) throw new Error(`endpoint registration answered ${endpoint.status}`);
    const chargeIds: string[] = [];
    let key = '';
    for (let i = 0; i < 2 * (N + WARMUP); i += 1) {
      if (i % CHARGES_PER_KEY === 0)
        key = (await call(adminPort, 'POST', `/admin/accounts/${account.id}/api-keys`, adminHeaders, { permissions: ['payments:write'] }))
          .body.data.key;
      const charge = await call(
        port,
        'POST',
        '/v1/transactions',
        { authorization: `Bearer ${key}`, 'idempotency-key': `bench-${i}` },
        {
          amount: 10 + (i % 50),
          payer: { name: 'Maria da Silva', document: '52998224725' },
        },
      );
      if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
      chargeIds.push(charge.body.data.id);
    }
    const pay = async (id: string) => {
      const delivered = receiver.delivered(id);
      const sentAtMs = Date.now();
      const paid = await call(adminPort, 'POST', `/admin/simulator/charges/${id}/pay`, adminHeaders);
      if (paid.status !== 200) throw new Error(`pay ${id} answered ${paid.status}`);
      return { sentAtMs, received: await delivered };
    };
    const engineParties = { temporalPort, engine: engine.pid, database: new URL(engine.databaseUrl).pathname.slice(1) };
    for (const [label, ids, pace] of [
      [inFlight, chargeIds.slice(0, N + WARMUP), { concurrency: CONCURRENCY }],
      [sustained, chargeIds.slice(N + WARMUP), { rate: RATE }],
    ] as const) {
      await payAll(ids.slice(0, WARMUP), pay, { concurrency: CONCURRENCY });
      await measured(`payments, ${label}`, engineParties, ids.slice(WARMUP), () => payAll(ids.slice(WARMUP), pay, pace));
    }
  } finally {
    agent.destroy();
    receiver.close();
    await stopProcess(baselineWorker);
    await client.connection.close();
    await engine.stop();
  }

  const ms = (sorted: number[], q: number) => quantile(sorted, q).toFixed(0);
  console.log(`approval -> signed webhook received, ${N} payments per run after ${WARMUP} of warm-up`);
  printTable(
    ['run', 'per s', 'p50 ms', 'p99 ms', 'max ms', 'from the send: p50 ms', 'p99 ms'],
    runs.map((r) => [
      r.label,
      r.perSecond.toFixed(1),
      ms(r.fromApproval, 0.5),
      ms(r.fromApproval, 0.99),
      ms(r.fromApproval, 1),
      ms(r.fromSend, 0.5),
      ms(r.fromSend, 0.99),
    ]),
  );
  console.log("(bare baseline: from the signal's send; payments: from the approval, and from the pay call's send)");
  printCpuTable(cpuRows);
  const one = runs.find((r) => r.label === `payments, ${inFlight}`)!;
  const met = quantile(one.fromApproval, 0.5) <= TARGET_P50_MS && quantile(one.fromApproval, 0.99) <= TARGET_P99_MS;
  console.log(`\ntarget with ${inFlight}: p50 ≤ ${TARGET_P50_MS} ms and p99 ≤ ${TARGET_P99_MS} ms: ${met ? 'met' : 'NOT met'}`);
}

await main();
