// Approval → signed webhook received, as `npm run bench:webhooks` measures it and `npm run bench` prints it beside
// its ratios. A local receiver (node:http on 127.0.0.1) takes the signed POSTs; for each payment, the time from the
// charge's approval (`data.approvedAt` in the delivered body: the instant the network took the payment) to the
// moment the receiver has the whole request, and from the moment the operator's pay call was sent. The engine runs
// with WEBHOOK_ALLOW_INSECURE=true (the receiver is plain http on loopback).
//
// The floor of that path: waiting workflows of a baseline worker (bench/baseline/workflow.ts) on the engine's
// Temporal server, each sent a signal and POSTing a signed notice to the same receiver from a local activity: signal,
// one workflow task and one POST on this machine.
import { once } from 'node:events';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { paidBaselineSignal, paymentBaselineWorkflow } from './baseline/workflow.js';
import { startBaselineWorker, stopProcess } from './child-process.js';
import { startEngine, type BenchEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

/** Unmeasured payments (or floor signals) before each measured run. */
export const WARMUP = 20;
/** Charges per API key, below the 100-per-minute quota. */
const CHARGES_PER_KEY = 90;
/** The path's latency against its floor's, p50 and p99 each (bench:webhooks' and npm run bench's). */
export const TARGET_FLOOR_RATIO = 1.3;

export interface Received {
  receivedAtMs: number;
  /** The engine's approval instant (`data.approvedAt`); none for the floor. */
  approvedAtMs?: number;
}

export interface Receiver {
  url: string;
  /** Resolves when the notice of transaction (or floor workflow) `id` has fully arrived. */
  delivered(id: string): Promise<Received>;
  close(): void;
}

export async function startReceiver(): Promise<Receiver> {
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

/** Ascending latencies in ms. */
export interface Latencies {
  /** From the approval (engine) or the signal's send (floor). */
  fromApproval: number[];
  /** From the pay call's send (engine) or the signal's send (floor). */
  fromSend: number[];
  perSecond: number;
}

/** Pays one id (a charge, or a floor workflow) and resolves once its notice arrived. */
export type Payer = (id: string) => Promise<{ sentAtMs: number; received: Received }>;

/** Pays `ids` with `concurrency` in flight, or at `rate` per second when given (open loop); the latencies of each. */
export async function payAll(ids: string[], pay: Payer, pace: { concurrency: number } | { rate: number }): Promise<Latencies> {
  const fromApproval: number[] = [];
  const fromSend: number[] = [];
  const one = async (id: string) => {
    const { sentAtMs, received } = await pay(id);
    fromApproval.push(received.receivedAtMs - (received.approvedAtMs ?? sentAtMs));
    fromSend.push(received.receivedAtMs - sentAtMs);
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
  fromApproval.sort((a, b) => a - b);
  fromSend.sort((a, b) => a - b);
  return { fromApproval, fromSend, perSecond: ids.length / ((Date.now() - started) / 1000) };
}

/** Floor workflows, one per id, waiting on `taskQueue` (a baseline worker's) for the signal that makes them POST to `receiver`. */
export async function startFloorWorkflows(client: Client, taskQueue: string, receiver: Receiver, ids: string[]): Promise<void> {
  for (const workflowId of ids) await client.workflow.start(paymentBaselineWorkflow, { workflowId, taskQueue, args: [receiver.url] });
}

/** Signals a floor workflow. */
export function floorPayer(client: Client, receiver: Receiver): Payer {
  return async (workflowId) => {
    const delivered = receiver.delivered(workflowId);
    const sentAtMs = Date.now();
    await client.workflow.getHandle(workflowId).signal(paidBaselineSignal);
    return { sentAtMs, received: await delivered };
  };
}

/** The engine's side: charges of an account whose webhook endpoint is a receiver, paid through the simulator. */
export function simulatorPayments(engine: BenchEngine) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const call = jsonCalls(agent);
  const { port, adminPort, adminHeaders } = engine;
  return {
    /** A new account with `receiver` as its endpoint, and `count` immediate charges of it. */
    async charges(receiver: Receiver, count: number): Promise<string[]> {
      const account = await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
        name: 'Bench Webhooks',
        document: '11222333000181',
        allowDuplicate: true,
        email: `bench.webhooks.${Date.now()}@example.com`,
        kycStatus: 'approved',
      });
      if (account.status !== 201) throw new Error(`account creation answered ${account.status}: ${JSON.stringify(account.body)}`);
      const accountId = account.body.data.id;
      const endpoint = await call(adminPort, 'POST', `/admin/accounts/${accountId}/webhook-endpoints`, adminHeaders, { url: receiver.url });
      if (endpoint.status !== 201) throw new Error(`endpoint registration answered ${endpoint.status}`);
      const ids: string[] = [];
      let key = '';
      for (let i = 0; i < count; i += 1) {
        if (i % CHARGES_PER_KEY === 0)
          key = (await call(adminPort, 'POST', `/admin/accounts/${accountId}/api-keys`, adminHeaders, { permissions: ['payments:write'] }))
            .body.data.key;
        const charge = await call(
          port,
          'POST',
          '/v1/transactions',
          { authorization: `Bearer ${key}`, 'idempotency-key': `bench-${i}` },
          { amount: 10 + (i % 50), payer: { name: 'Maria da Silva', document: '52998224725' } },
        );
        if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
        ids.push(charge.body.data.id);
      }
      return ids;
    },
    /** Pays a charge as the payer's bank would (the simulator's admin route). */
    payer(receiver: Receiver): Payer {
      return async (id) => {
        const delivered = receiver.delivered(id);
        const sentAtMs = Date.now();
        const paid = await call(adminPort, 'POST', `/admin/simulator/charges/${id}/pay`, adminHeaders);
        if (paid.status !== 200) throw new Error(`pay ${id} answered ${paid.status}`);
        return { sentAtMs, received: await delivered };
      };
    },
    close: () => agent.destroy(),
  };
}

/** What both webhook benches measure with: an engine of their own, the receiver, the simulator's payer, a bare-baseline worker on the engine's Temporal server and a client of it. */
export interface LatencyParties {
  engine: BenchEngine;
  receiver: Receiver;
  payments: ReturnType<typeof simulatorPayments>;
  taskQueue: string;
  baselineWorker: Awaited<ReturnType<typeof startBaselineWorker>>;
  client: Client;
}

/** Starts the parties (the engine with WEBHOOK_ALLOW_INSECURE=true), runs `run` with them, then closes and stops them all. */
export async function withLatencyParties<T>(run: (parties: LatencyParties) => Promise<T>): Promise<T> {
  const engine = await startEngine({ WEBHOOK_ALLOW_INSECURE: 'true' });
  const receiver = await startReceiver();
  const payments = simulatorPayments(engine);
  const taskQueue = `baseline-${randomBytes(4).toString('hex')}`;
  const baselineWorker = await startBaselineWorker(engine.temporalAddress, taskQueue);
  const client = new Client({ connection: await Connection.connect({ address: engine.temporalAddress }) });
  try {
    return await run({ engine, receiver, payments, taskQueue, baselineWorker, client });
  } finally {
    payments.close();
    receiver.close();
    await stopProcess(baselineWorker);
    await client.connection.close();
    await engine.stop();
  }
}

export interface OneInFlight {
  floor: Latencies;
  payments: Latencies;
}

/**
 * bench:webhooks' one-in-flight runs on an engine of their own (its embedded Temporal dev server, its history on
 * disk as `npm start` keeps it): `count` floor signals, then `count` charges paid, each after WARMUP. Twice as many
 * charges are made first, as bench:webhooks makes them for its two runs: more than the worker's sticky cache holds,
 * so most payments replay their charge's history, as a payment minutes after its charge does.
 */
export function oneInFlight(count: number): Promise<OneInFlight> {
  return withLatencyParties(async ({ receiver, payments, taskQueue, baselineWorker, client }) => {
    const floorIds = Array.from({ length: count + WARMUP }, (_, i) => `floor-${i}`);
    await startFloorWorkflows(client, taskQueue, receiver, floorIds);
    const signal = floorPayer(client, receiver);
    await payAll(floorIds.slice(0, WARMUP), signal, { concurrency: 1 });
    const floor = await payAll(floorIds.slice(WARMUP), signal, { concurrency: 1 });
    await stopProcess(baselineWorker);
    const chargeIds = (await payments.charges(receiver, 2 * (count + WARMUP))).slice(0, count + WARMUP);
    const pay = payments.payer(receiver);
    await payAll(chargeIds.slice(0, WARMUP), pay, { concurrency: 1 });
    return { floor, payments: await payAll(chargeIds.slice(WARMUP), pay, { concurrency: 1 }) };
  });
}

/** The one-in-flight p50 and p99 of the path and of its floor, and the path's multiple of the floor at each, with the verdict. */
export function floorRatioLine({ floor, payments }: OneInFlight): string {
  const [p50, p99] = [0.5, 0.99].map((q) => quantile(payments.fromApproval, q));
  const [floor50, floor99] = [0.5, 0.99].map((q) => quantile(floor.fromApproval, q));
  const [ratio50, ratio99] = [p50! / floor50!, p99! / floor99!];
  const met = ratio50 <= TARGET_FLOOR_RATIO && ratio99 <= TARGET_FLOOR_RATIO;
  return (
    `approval -> signed webhook, 1 in flight: p50 ${p50!.toFixed(0)} ms, p99 ${p99!.toFixed(0)} ms; bare floor p50 ${floor50!.toFixed(0)}, ` +
    `p99 ${floor99!.toFixed(0)} ms; path/floor ${ratio50.toFixed(2)}x at p50, ${ratio99.toFixed(2)}x at p99` +
    `   (target: ≤ ${TARGET_FLOOR_RATIO}x both: ${met ? 'met' : 'NOT met'})`
  );
}
