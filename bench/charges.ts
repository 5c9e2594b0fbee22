// Sustained charge creation against a running engine, next to a bare Temporal baseline on the same
// machine in the same run, with the CPU each process spends per operation.
//
//   npm run bench                                  (DURATION=20 s, CONCURRENCY=8)
//   node --import tsx bench/charges.ts [DURATION_S] [CONCURRENCY]
//
// 1. Baseline: a worker process (bench/baseline/worker.ts, its own task queue) and, from this
//    process, CONCURRENCY loops of update-with-start of a tiny workflow whose update runs one no-op
//    activity: the least any "start a workflow and wait for its first step" API can cost here.
// 2. Charges: the engine as its own process (`src/main.ts all`: API, admin API and worker) on a fresh
//    PostgreSQL database, and autocannon at CONCURRENCY connections posting charges with unique
//    idempotency keys, spread over enough API keys to stay under the 100-per-minute quota.
// 3. The baseline again, right before the transfers: the same worker and task queue, on the Temporal
//    server as the engine's runs have left it, with the machine as it is by then.
// 4. Transfers, on the same engine: autocannon posting transfers from funded accounts in rotation
//    (bench/transfers.ts).
// Every closed-loop run gets WARMUP_S of unmeasured load first. Reported: requests/s, p50, p99, errors,
// and the charges/baseline and transfers/baseline ratios (target ≥ 90 %), each against the baseline run
// right before it: the first baseline runs on a fresh server minutes before the transfers, which by
// then share it with every earlier run's workflows, and on a machine whose CPU per operation rises
// under sustained load (docs/benchmarks.md); the ratio against the first baseline is printed beside it.
// After the closed-loop baseline and charge runs, an open-loop run of DURATION_S at half the rate the
// closed loop reached (bench/open-loop.ts: fixed arrival rate, latency from the scheduled send, so no
// coordinated omission): rate asked and achieved, p50, p99, max, errors; target for charges p99 ≤ 150 ms.
// For every measured run, CPU-ms per operation of each process from /proc (bench/process-cpu.ts): the
// engine, the Temporal dev server, PostgreSQL, this process (the load generator), the baseline worker,
// and the machine's busy CPU, whose remainder ("other") is anything else running on the machine; then the
// engine's and the baseline worker's CPU per operation by thread (bench/thread-cpu.ts: main, workflow…).
// The Temporal dev server (in memory) is shared by all runs. At the end, the Temporal actions per
// charge and per transfer, from the histories of up to ACTIONS_SAMPLE of each (bench/temporal-actions.ts).
// Then approval → signed webhook received, one in flight, on an engine of its own with its embedded dev server, as
// `npm run bench:webhooks` measures it (bench/webhook-latency.ts): WEBHOOK_PAYMENTS payments and as many signals of
// its bare floor on the same server, printed beside the ratios as p50 and p99 and the path's multiple of its floor
// (target ≤ 1.3x), so that a slower path shows the day it lands.
//
// BENCH_PAIRED_ROUNDS=N adds, at the end, N rounds of the bare baseline then transfers (PAIRED_S each, after
// WARMUP_S), the baseline worker and the engine both running throughout: each round's ratio compares two runs
// made seconds apart on the same Temporal server and machine, where the runs above are minutes apart (the
// baseline on a fresh server, the transfers on one holding every workflow since). Printed as a table and as
// `transfers/baseline throughput, paired rounds: median N %`.
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { CHARGE_WORKFLOW } from '../src/charges/contract.js';
import { TRANSFER_WORKFLOW } from '../src/transfers/contract.js';
import { connect } from '../src/db/database.js';
import { startBenchDevServer } from './dev-server.js';
import { startBaselineWorker, stopProcess } from './child-process.js';
import { startEngine, type BenchEngine } from './engine.js';
import { bearerTokens } from './merchants.js';
import { acceptBaselineUpdate, baselineWorkflow } from './baseline/workflow.js';
import { jsonCalls, printTable, quantile, type Figures } from './measure.js';
import { openLoop, printOpenLoopTable, type OpenLoopFigures } from './open-loop.js';
import { createdFigures, postLoad } from './post-load.js';
import { measureCpu, printCpuTable, type CpuParties, type CpuUse } from './process-cpu.js';
import { actionsPerOperation, printActionsTable } from './temporal-actions.js';
import { printThreadTable } from './thread-cpu.js';
import { transferAccounts, transferLoad } from './transfers.js';
import { floorRatioLine, oneInFlight } from './webhook-latency.js';

const DURATION_S = Number(process.argv[2] ?? 20);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const WARMUP_S = 3;
/** Requests per API key, under the 100-per-minute quota; keys for up to this many requests per second. */
const REQUESTS_PER_KEY = 90;
const MAX_RATE_PER_S = 500;
/** The open-loop runs' arrival rate, as a share of the rate the closed loop reached. */
const OPEN_LOOP_SHARE = 0.5;
const TARGET_BASELINE_SHARE = 0.9;
const TARGET_OPEN_LOOP_P99_MS = 150;
const PAIRED_ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 0);
const PAIRED_S = 10;
/** Workflows whose histories are read for the Temporal actions per operation (bench/temporal-actions.ts). */
const ACTIONS_SAMPLE = 200;
/** Payments (and floor signals) of the approval → webhook runs, as in docs/benchmarks.md's `bench:webhooks -- 200`. */
const WEBHOOK_PAYMENTS = 200;
/** Long enough for the last transfers to reach their first poll and settle. */
const SETTLE_WAIT_MS = 3000;
const CHARGE_BODY = {
  amount: 49.9,
  payer: { name: 'Maria da Silva', document: '52998224725', email: 'maria@example.com' },
  description: 'bench',
};

/** One update-with-start of the baseline workflow, answered once its no-op activity has run. */
async function baselineCall(client: Client, taskQueue: string): Promise<void> {
  await client.workflow.executeUpdateWithStart(acceptBaselineUpdate, {
    startWorkflowOperation: new WithStartWorkflowOperation(baselineWorkflow, {
      workflowId: `baseline-${randomBytes(8).toString('hex')}`,
      taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
    }),
  });
}

/** CONCURRENCY loops of update-with-start against the baseline worker for `seconds`. */
async function baselineLoad(client: Client, taskQueue: string, seconds: number, label: string): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + seconds * 1000;
  const loop = async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      try {
        await baselineCall(client, taskQueue);
        latencies.push(performance.now() - started);
      } catch {
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsedS = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: latencies.length,
    perSecond: latencies.length / elapsedS,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    errors,
  };
}

/** autocannon posting charges: a unique idempotency key per request, API keys in rotation. */
async function chargeLoad(apiUrl: string, tokens: string[], seconds: number, label: string): Promise<Figures> {
  const result = await postLoad({
    url: `${apiUrl}/transactions`,
    body: JSON.stringify(CHARGE_BODY),
    tokens,
    seconds,
    connections: CONCURRENCY,
    run: label.replace(/\W/g, ''),
  });
  const unexpected = Object.entries(result.statusCodeStats).filter(([status]) => status !== '201');
  if (unexpected.length || result.errors) {
    process.stderr.write(
      `${label}: ${unexpected.map(([status, { count }]) => `${count} × ${status}`).join(', ')}; ${result.errors} connection errors (${result.timeouts} timeouts)\n`,
    );
  }
  return createdFigures(label, result);
}

/** Charges posted at `ratePerS` for DURATION_S, open loop: each on its own socket when earlier ones are still out. */
async function openLoopCharges(port: number, tokens: string[], ratePerS: number, label: string): Promise<OpenLoopFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const call = jsonCalls(agent);
  const run = `openloop${Date.now()}`;
  try {
    return await openLoop(label, ratePerS, DURATION_S, async (i) => {
      const headers = { authorization: `Bearer ${tokens[i % tokens.length]}`, 'idempotency-key': `bench-${run}-${i}` };
      return (await call(port, 'POST', '/v1/transactions', headers, CHARGE_BODY)).status === 201;
    });
  } finally {
    agent.destroy();
  }
}

function report(rows: Figures[]): void {
  printTable(
    ['run', 'ok', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    rows.map((r) => [r.label, String(r.requests), r.perSecond.toFixed(1), r.p50.toFixed(1), r.p99.toFixed(1), String(r.errors)]),
  );
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** BENCH_PAIRED_ROUNDS rounds of the bare baseline then transfers, both workers running throughout (see the top). */
async function pairedRounds(client: Client, temporalAddress: string, apiUrl: string, payers: string[]): Promise<void> {
  const taskQueue = `baseline-${randomBytes(4).toString('hex')}`;
  const worker = await startBaselineWorker(temporalAddress, taskQueue);
  const rows: { baseline: Figures; transfers: Figures }[] = [];
  try {
    for (let round = 1; round <= PAIRED_ROUNDS; round++) {
      await baselineLoad(client, taskQueue, WARMUP_S, 'warm-up');
      const baseline = await baselineLoad(client, taskQueue, PAIRED_S, `round ${round}`);
      await transferLoad(apiUrl, payers, WARMUP_S, CONCURRENCY, 'warm-up');
      rows.push({ baseline, transfers: await transferLoad(apiUrl, payers, PAIRED_S, CONCURRENCY, `round ${round}`) });
    }
  } finally {
    await stopProcess(worker);
  }
  const ratios = rows.map((r) => r.transfers.perSecond / r.baseline.perSecond);
  process.stdout.write(`\npaired rounds: the bare baseline, then transfers, ${PAIRED_S} s each after ${WARMUP_S} s of warm-up\n`);
  printTable(
    ['round', 'baseline/s', 'transfers/s', 'transfers errors', 'transfers/baseline'],
    rows.map((r, i) => [
      r.baseline.label,
      r.baseline.perSecond.toFixed(1),
      r.transfers.perSecond.toFixed(1),
      String(r.transfers.errors),
      `${(ratios[i]! * 100).toFixed(0)} %`,
    ]),
  );
  const median = quantile(
    [...ratios].sort((a, b) => a - b),
    0.5,
  );
  process.stdout.write(
    `transfers/baseline throughput, paired rounds: median ${(median * 100).toFixed(0)} %   (target: ≥ ${TARGET_BASELINE_SHARE * 100} %: ${verdict(median >= TARGET_BASELINE_SHARE)})\n`,
  );
}

async function main() {
  process.stdout.write(
    `charges bench: ${DURATION_S} s at ${CONCURRENCY} concurrent requests (after ${WARMUP_S} s of warm-up), then ${DURATION_S} s open loop at ${OPEN_LOOP_SHARE * 100} % of that rate\n`,
  );
  const { server: temporalServer, port: temporalPort } = await startBenchDevServer();
  const client = new Client({ connection: await Connection.connect({ address: temporalServer.address }) });
  let baselineWorker: ChildProcess | undefined;
  let engine: BenchEngine | undefined;
  const cpu: { label: string; operations: number; cpu: CpuUse }[] = [];
  /** `run` with the CPU each party used meanwhile added to the CPU table. */
  const measured = async <T extends { requests: number }>(label: string, parties: CpuParties, run: () => Promise<T>): Promise<T> => {
    const [figures, use] = await measureCpu(parties, run);
    cpu.push({ label, operations: figures.requests, cpu: use });
    return figures;
  };
  try {
    const taskQueue = `baseline-${randomBytes(4).toString('hex')}`;
    baselineWorker = await startBaselineWorker(temporalServer.address, taskQueue);
    const baselineParties = { temporalPort, baselineWorker: baselineWorker.pid };
    await baselineLoad(client, taskQueue, WARMUP_S, 'warm-up');
    const baseline = await measured('baseline, closed loop', baselineParties, () =>
      baselineLoad(client, taskQueue, DURATION_S, 'bare Temporal (update-with-start + 1 no-op activity)'),
    );
    const baselineOpen = await measured('baseline, open loop', baselineParties, () =>
      openLoop('bare Temporal', baseline.perSecond * OPEN_LOOP_SHARE, DURATION_S, () => baselineCall(client, taskQueue).then(() => true)),
    );

    // Transfers settle at the first poll, so that accounts are free again soon (bench/transfers.ts).
    engine = await startEngine({ TEMPORAL_ADDRESS: temporalServer.address, SIMULATOR_TRANSFER_DELAY_MS: '0' });
    const engineParties = { temporalPort, engine: engine.pid, database: new URL(engine.databaseUrl).pathname.slice(1) };
    const chargesAtMost = MAX_RATE_PER_S * (WARMUP_S + DURATION_S * (1 + OPEN_LOOP_SHARE));
    const tokens = await bearerTokens(
      `http://127.0.0.1:${engine.adminPort}/admin`,
      engine.adminHeaders,
      Math.ceil(chargesAtMost / REQUESTS_PER_KEY),
    );
    const apiUrl = `http://127.0.0.1:${engine.port}/v1`;
    await chargeLoad(apiUrl, tokens, WARMUP_S, 'warm-up');
    const charges = await measured('charges, closed loop', engineParties, () =>
      chargeLoad(apiUrl, tokens, DURATION_S, 'charges (POST /v1/transactions, 201)'),
    );
    const chargesOpen = await measured('charges, open loop', engineParties, () =>
      openLoopCharges(engine!.port, tokens, charges.perSecond * OPEN_LOOP_SHARE, 'charges (POST /v1/transactions, 201)'),
    );

    const sql = connect(engine.databaseUrl, { max: 1 });
    const [count] = await sql<{ n: number }[]>`select count(*)::int as n from transactions`;
    await sql.end();
    const payers = await transferAccounts(engine.databaseUrl, MAX_RATE_PER_S);
    await baselineLoad(client, taskQueue, WARMUP_S, 'warm-up');
    const baselineAgain = await measured('baseline again, closed loop', baselineParties, () =>
      baselineLoad(client, taskQueue, DURATION_S, 'bare Temporal again (right before the transfers)'),
    );
    await transferLoad(apiUrl, payers, WARMUP_S, CONCURRENCY, 'warm-up');
    const transfers = await measured('transfers, closed loop', engineParties, () =>
      transferLoad(apiUrl, payers, DURATION_S, CONCURRENCY, 'transfers (POST /v1/transfers, 201)'),
    );
    report([baseline, charges, baselineAgain, transfers]);
    printOpenLoopTable([baselineOpen, chargesOpen]);
    printCpuTable(cpu);
    printThreadTable(
      cpu.flatMap(({ label, operations, cpu: { threads } }) =>
        threads.engine
          ? [{ label, process: 'engine', operations, threads: threads.engine }]
          : threads.baselineWorker
            ? [{ label, process: 'baseline worker', operations, threads: threads.baselineWorker }]
            : [],
      ),
    );
    // The transfers settled meanwhile (the simulator answers at the first poll); the charges wait for a payment.
    await sleep(SETTLE_WAIT_MS);
    printActionsTable([
      {
        label: 'charge created (left pending)',
        counts: await actionsPerOperation(client, `WorkflowType = '${CHARGE_WORKFLOW}'`, ACTIONS_SAMPLE),
      },
      {
        label: 'transfer (created, settled approved)',
        counts: await actionsPerOperation(
          client,
          `WorkflowType = '${TRANSFER_WORKFLOW}' AND ExecutionStatus = 'Completed'`,
          ACTIONS_SAMPLE,
        ),
      },
    ]);
    const webhooks = floorRatioLine(await oneInFlight(WEBHOOK_PAYMENTS));
    const ratio = charges.perSecond / baseline.perSecond;
    const transferRatio = transfers.perSecond / baselineAgain.perSecond;
    process.stdout.write(
      `\ncharges/baseline throughput: ${(ratio * 100).toFixed(0)} %   (target: charges/baseline ≥ ${TARGET_BASELINE_SHARE * 100} %: ${verdict(ratio >= TARGET_BASELINE_SHARE)})\n` +
        `${webhooks}\n` +
        `transfers/baseline throughput: ${(transferRatio * 100).toFixed(0)} %   (target: transfers/baseline ≥ ${TARGET_BASELINE_SHARE * 100} %: ${verdict(transferRatio >= TARGET_BASELINE_SHARE)}; against the first baseline: ${((transfers.perSecond / baseline.perSecond) * 100).toFixed(0)} %)\n` +
        `open-loop charges p99: ${chargesOpen.p99.toFixed(1)} ms at ${chargesOpen.askedPerSecond.toFixed(1)}/s, bare baseline ${baselineOpen.p99.toFixed(1)} ms at ${baselineOpen.askedPerSecond.toFixed(1)}/s` +
        `   (target: open-loop p99 ≤ ${TARGET_OPEN_LOOP_P99_MS} ms: ${verdict(chargesOpen.p99 <= TARGET_OPEN_LOOP_P99_MS && chargesOpen.errors === 0)})\n` +
        `charges closed loop: ${charges.perSecond.toFixed(1)}/s, p99 ${charges.p99.toFixed(1)} ms   (targets: ≥ 100 charges/s, p99 ≤ 300 ms: ${verdict(charges.perSecond >= 100 && charges.p99 <= 300)})\n` +
        `transactions in the database: ${count!.n} (warm-up included)\n` +
        `transfers refused as WITHDRAWAL_IN_PROGRESS (an account came round before its transfer settled): ${transfers.inProgress}\n`,
    );
    if (PAIRED_ROUNDS > 0) await pairedRounds(client, temporalServer.address, apiUrl, payers);
  } finally {
    await engine?.stop();
    if (baselineWorker) await stopProcess(baselineWorker);
    await client.connection.close();
    await temporalServer.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
