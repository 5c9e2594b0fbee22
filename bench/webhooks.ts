// Time from approval to delivered webhook. Creates N charges on a real engine (its own process,
// embedded Temporal dev server, fresh PostgreSQL database), pays them through the simulator with
// CONCURRENCY payments in flight, and measures for each the time from the charge's approval
// (`data.approvedAt` in the delivered body: the instant the network took the payment) to the moment
// a local receiver (node:http on 127.0.0.1) has the whole signed request. Also reported: from the
// moment the operator's pay call was sent. The engine runs with WEBHOOK_ALLOW_INSECURE=true.
//
//   node --import tsx bench/webhooks.ts [N=500] [CONCURRENCY=1]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import { once } from 'node:events';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';

const N = Number(process.argv[2] ?? 500);
const CONCURRENCY = Number(process.argv[3] ?? 1);
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

    const total = N + WARMUP;
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
    let next = 0;
    const started = Date.now();
    async function payer() {
      for (let i = next++; i < total; i = next++) {
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
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, payer));
    const seconds = (Date.now() - started) / 1000;
    fromApproval.sort((a, b) => a - b);
    fromPayCall.sort((a, b) => a - b);
    const row = (name: string, s: number[]) => `${name.padEnd(36)} p50 ${quantile(s, 0.5)} ms   p99 ${quantile(s, 0.99)} ms   max ${s.at(-1)} ms`;
    console.log(`${N} charges paid (after ${WARMUP} warm-up), ${CONCURRENCY} payment(s) in flight, ${(total / seconds).toFixed(1)} deliveries/s`);
    console.log(row('approval -> webhook received', fromApproval));
    console.log(row('pay call sent -> webhook received', fromPayCall));
  } finally {
    agent.destroy();
    receiver.close();
    await stop();
  }
}

await main();
