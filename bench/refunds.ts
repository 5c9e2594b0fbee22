// Refund latency on the simulator route: the time from an operator's refund request (POST
// /admin/transactions/{id}/refunds sent) to the refund approved (the refund row's `updated_at`, set in
// the settlement's PostgreSQL transaction; same host clock), with the simulated network answering at once:
// 1. by itself (SIMULATOR_TRANSFER_DELAY_MS=0): the route's answer to the hand-over is already approved;
// 2. by the operator's complete call (SIMULATOR_TRANSFER_DELAY_MS=-1), POST /admin/simulator/refunds/{id}/complete
//    sent as soon as the request is answered 201: also timed from that call (the `networkAnswered` signal path).
// Each on an engine of its own (its own process, embedded Temporal dev server, fresh PostgreSQL database).
// Each refund returns R$ 1,00 of a charge paid at the simulator beforehand (setup, not measured), the charges
// taken in rotation; CONCURRENCY refunds in flight, after WARMUP unmeasured ones.
//
//   npm run bench:refunds [N=200] [CONCURRENCY=1]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away databases go.
import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { connect } from '../src/db/database.js';
import { refundWorkflowId } from '../src/refunds/contract.js';
import { startEngine, type BenchEngine } from './engine.js';
import { jsonCalls, printTable, quantile } from './measure.js';

const N = Number(process.argv[2] ?? 200);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const WARMUP = 10;
/** R$ 1,00 refunds per R$ 100,00 charge: the charge's net amount covers them. */
const REFUNDS_PER_CHARGE = 50;
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const call = jsonCalls(agent);

type Sql = ReturnType<typeof connect>;

interface Timings {
  /** The request's answer (201). */
  answered: number[];
  approved: number[];
  /** From the operator's complete call sent (the second setting only). */
  completeToApproved: number[];
}

/** `count` charges of R$ 100,00 of one merchant, paid at the simulator and approved. */
async function paidCharges(engine: BenchEngine, sql: Sql, count: number): Promise<{ accountId: string; ids: string[] }> {
  const { port, adminPort, adminHeaders } = engine;
  const account = (
    await call(adminPort, 'POST', '/admin/accounts', adminHeaders, {
      name: 'Bench Devoluções',
      document: '11222333000181',
      email: 'refunds@bench.example.com',
      kycStatus: 'approved',
    })
  ).body.data;
  if (!account?.id) throw new Error('account creation failed');
  const key = (await call(adminPort, 'POST', `/admin/accounts/${account.id}/api-keys`, adminHeaders, { permissions: ['payments:write'] }))
    .body.data.key;
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const charge = await call(
      port,
      'POST',
      '/v1/transactions',
      { authorization: `Bearer ${key}`, 'idempotency-key': `bench-refund-charge-${i}` },
      { amount: 100, payer: { name: 'Maria da Silva', document: '52998224725' } },
    );
    if (charge.status !== 201) throw new Error(`charge ${i} answered ${charge.status}: ${JSON.stringify(charge.body)}`);
    const paid = await call(adminPort, 'POST', `/admin/simulator/charges/${charge.body.data.id}/pay`, adminHeaders);
    if (paid.status !== 200) throw new Error(`pay ${charge.body.data.id} answered ${paid.status}: ${JSON.stringify(paid.body)}`);
    ids.push(charge.body.data.id);
  }
  for (const id of ids) await until(sql, 'transactions', id, 'approved');
  return { accountId: account.id, ids };
}

/** Polls `table`'s row `id` until its status is `status`; answers its `updated_at` then. */
async function until(sql: Sql, table: 'transactions' | 'refunds', id: string, status: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await sql<
      { status: string; updatedAt: Date }[]
    >`select status, updated_at as "updatedAt" from ${sql(table)} where id = ${id}`;
    if (row?.status === status) return row.updatedAt.getTime();
    if (Date.now() > deadline) throw new Error(`${id} is ${row?.status ?? 'missing'} after 30 s, not ${status}`);
    await sleep(5);
  }
}

/** N + WARMUP refunds on an engine started with `delayMs`; `complete`: the operator settles each. */
async function run(delayMs: number, complete: boolean): Promise<Timings> {
  const engine = await startEngine({ SIMULATOR_TRANSFER_DELAY_MS: String(delayMs) });
  const sql = connect(engine.databaseUrl, { max: CONCURRENCY + 1 });
  const connection = await Connection.connect({ address: engine.temporalAddress });
  const temporal = new Client({ connection });
  const { adminPort, adminHeaders } = engine;
  const timings: Timings = { answered: [], approved: [], completeToApproved: [] };
  try {
    const total = N + WARMUP;
    const { accountId, ids: charges } = await paidCharges(engine, sql, Math.max(CONCURRENCY, Math.ceil(total / REFUNDS_PER_CHARGE)));
    let next = 0;
    const operator = async () => {
      for (let i = next++; i < total; i = next++) {
        const key = `bench-refund-${i}`;
        const sentAt = Date.now();
        const asked = await call(
          adminPort,
          'POST',
          `/admin/transactions/${charges[i % charges.length]}/refunds`,
          { ...adminHeaders, 'idempotency-key': key },
          { amount: 1, reason: 'bench' },
        );
        if (asked.status !== 201) throw new Error(`refund ${i} answered ${asked.status}: ${JSON.stringify(asked.body)}`);
        const id = asked.body.data.id as string;
        let completeSentAt = NaN;
        if (complete) {
          completeSentAt = Date.now();
          const done = await call(adminPort, 'POST', `/admin/simulator/refunds/${id}/complete`, adminHeaders, { outcome: 'approved' });
          if (done.status !== 200 && done.status !== 202)
            throw new Error(`complete ${id} answered ${done.status}: ${JSON.stringify(done.body)}`);
        }
        const approvedAt = await until(sql, 'refunds', id, 'approved');
        // Done once its workflow has closed too, so that the next refund does not share the CPU with its last step.
        const workflow = temporal.workflow.getHandle(refundWorkflowId(accountId, key));
        while ((await workflow.describe()).status.name === 'RUNNING') await sleep(5);
        if (i < WARMUP) continue;
        timings.answered.push(asked.ms);
        timings.approved.push(approvedAt - sentAt);
        if (complete) timings.completeToApproved.push(approvedAt - completeSentAt);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, operator));
    return timings;
  } finally {
    await connection.close();
    await sql.end({ timeout: 5 });
    await engine.stop();
  }
}

const row = (label: string, values: number[]): string[] => {
  const sorted = [...values].sort((a, b) => a - b);
  return [label, ...[0.5, 0.99, 1].map((q) => quantile(sorted, q).toFixed(1))];
};

async function main() {
  const atOnce = await run(0, false);
  const completed = await run(-1, true);
  agent.destroy();
  process.stdout.write(`${N} refunds on the simulator route per setting (after ${WARMUP} warm-up), ${CONCURRENCY} in flight\n`);
  printTable(
    ['ms', 'p50', 'p99', 'max'],
    [
      row('network at once (delay 0): request -> 201', atOnce.answered),
      row('network at once (delay 0): request -> approved', atOnce.approved),
      row('complete call (delay -1): request -> 201', completed.answered),
      row('complete call (delay -1): request -> approved', completed.approved),
      row('complete call (delay -1): complete sent -> approved', completed.completeToApproved),
    ],
  );
}

await main();
