// Time from approval to delivered webhook. Creates N charges on a real engine (its own process,
// embedded Temporal dev server, fresh PostgreSQL database), pays them through the simulator with
// CONCURRENCY payments in flight, and measures for each the time from the charge's approval
// (`data.approvedAt` in the delivered body: the instant the network took the payment) to the moment
// a local receiver (node:http on 127.0.0.1) has the whole signed request. Also reported: from the
// moment the operator's pay call was sent. The engine runs with WEBHOOK_ALLOW_INSECURE=true.
// Then N more charges are paid at a sustained RATE per second (open loop: each pay call leaves at its
// scheduled time whatever the earlier ones are doing), and the same figures are reported.
//
//   npm run bench:webhooks [N=500] [CONCURRENCY=1] [RATE=20]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import { once } from 'node:events';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

const N = Number(process.argv[2] ?? 500);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const RATE = Number(process.argv[4] ?? 20);
const WARMUP = 20;
/** Charges per API key, below the 100-per-minute quota. */
const CHARGES_PER_KEY = 90;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const call = jsonCalls(agent);

/** The receiver: resolves the waiter of each transaction when its approved event has fully arrived. */
async function startReceiver() {
  const waiters = new Map<string, (receivedAtMs: number, approvedAtMs: number) => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const receivedAtMs = Date.now();
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString());
      if (event.event === 'transaction.approved') waiters.get(event.data.id)?.(receivedAtMs, Date.parse(event.data.approvedAt));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    delivered: (transactionId: string) => new Promise<{ receivedAtMs: number; approvedAtMs: number }>((resolve) => waiters.set(transactionId, (receivedAtMs, approvedAtMs) => resolve({ receivedAtMs, approvedAtMs }))),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function main() {
  const { port, adminPort, adminHeaders, stop } = await startEngine({ WEBHOOK_ALLOW_INSECURE: 'true' });
  const receiver = await startReceiver();
  try {
    const account = (await call(adminPort, 'POST', '/admin/accounts', adminHeaders, { name: 'Bench Webhooks', document: '11222333000181', email: 'bench@example.com', kycStatus: 'approved' })).body.data;
    const endpoint = await call(adminPort, 'POST', `/admin/accounts/${account.id}/webhook-endpoints`, adminHeaders, { url: receiver.url });
    if (endpoint.status !== 201) throw new Error(`endpoint registration answered ${endpoint.status}`);

    const total = 2 * N + WARMUP;
    const chargeIds: string[] = [];
    let key = '';
    for (let i = 0; i < total; i += 1) {
      if (i % CHARGES_PER_KEY === 0) key = (await call(adminPort, 'POST', `/admin/accounts/${account.id}/api-keys`, adminHeaders, { permissions: ['payments:write'] })).body.data.key;
      const charge = await call(port, 'POST', '/v1/transactions', { authorization: `Bearer ${key}`, 'idempotency-key': `bench-${i}` }, {
        amount: 10 + (i % 50),
        payer: { name: 'Maria da Silva', document: '52998224725' },
      });
      if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
      chargeIds.push(charge.body.data.id);
    }

    const fromApproval: number[] = [];
    const fromPayCall: number[] = [];
    /** Pays charge `i` and waits for its webhook; the first WARMUP are not counted. */
    async function pay(i: number) {
      const id = chargeIds[i]!;
      const delivered = receiver.delivered(id);
      const sentAtMs = Date.now();
      const paid = await call(adminPort, 'POST', `/admin/simulator/charges/${id}/pay`, adminHeaders);
      if (paid.status !== 200) throw new Error(`pay ${id} answered ${paid.status}`);
      const { receivedAtMs, approvedAtMs } = await delivered;
      if (i >= WARMUP) {
        fromApproval.push(receivedAtMs - approvedAtMs);
        fromPayCall.push(receivedAtMs - sentAtMs);
      }
    }
    const report = (label: string, seconds: number) => {
      fromApproval.sort((a, b) => a - b);
      fromPayCall.sort((a, b) => a - b);
      const row = (name: string, s: number[]) => `  ${name.padEnd(36)} p50 ${quantile(s, 0.5)} ms   p99 ${quantile(s, 0.99)} ms   max ${s.at(-1)} ms`;
      console.log(`${label}: ${fromApproval.length} charges paid, ${(fromApproval.length / seconds).toFixed(1)} deliveries/s`);
      console.log(row('approval -> webhook received', fromApproval));
      console.log(row('pay call sent -> webhook received', fromPayCall));
      fromApproval.length = 0;
      fromPayCall.length = 0;
    };

    let next = 0;
    let started = Date.now();
    const payer = async () => {
      for (let i = next++; i < N + WARMUP; i = next++) await pay(i);
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, payer));
    report(`${CONCURRENCY} payment(s) in flight (after ${WARMUP} warm-up)`, (Date.now() - started) / 1000);

    started = Date.now();
    const payments: Promise<void>[] = [];
    for (let i = N + WARMUP; i < total; i += 1) {
      const dueMs = started + ((i - N - WARMUP) * 1000) / RATE;
      if (dueMs > Date.now()) await new Promise((resolve) => setTimeout(resolve, dueMs - Date.now()));
      payments.push(pay(i));
    }
    await Promise.all(payments);
    report(`sustained ${RATE} payments/s (open loop)`, (Date.now() - started) / 1000);
    console.log('targets: one in flight p50 ≤ 50 ms and p99 ≤ 150 ms (approval -> webhook received)');
  } finally {
    agent.destroy();
    receiver.close();
    await stop();
  }
}

await main();
