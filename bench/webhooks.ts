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
// (bench/process-cpu.ts). With one in flight, also the path's multiple of its floor at p50 and p99 (target ≤ 1.3x),
// the line `npm run bench` prints too (both measure through bench/webhook-latency.ts).
//
//   npm run bench:webhooks [N=500] [CONCURRENCY=1] [RATE=20]
//
// BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the throw-away database goes.
import { stopProcess } from './child-process.js';
import { printTable, quantile } from './measure.js';
import { measureCpu, printCpuTable, type CpuParties, type CpuUse } from './process-cpu.js';
import { floorPayer, floorRatioLine, payAll, startFloorWorkflows, WARMUP, withLatencyParties, type Latencies } from './webhook-latency.js';

const N = Number(process.argv[2] ?? 500);
const CONCURRENCY = Number(process.argv[3] ?? 1);
const RATE = Number(process.argv[4] ?? 20);
const TARGET_P50_MS = 50;
const TARGET_P99_MS = 150;

interface RunFigures extends Latencies {
  label: string;
}

async function main() {
  const runs: RunFigures[] = [];
  const cpuRows: { label: string; operations: number; cpu: CpuUse }[] = [];
  const measured = async (label: string, parties: CpuParties, ids: string[], run: () => Promise<Latencies>) => {
    const [figures, cpu] = await measureCpu(parties, run);
    runs.push({ label, ...figures });
    cpuRows.push({ label, operations: ids.length, cpu });
  };
  const inFlight = `${CONCURRENCY} in flight`;
  const sustained = `sustained ${RATE}/s (open loop)`;
  await withLatencyParties(async ({ engine, receiver, payments, taskQueue, baselineWorker, client }) => {
    const temporalPort = Number(engine.temporalAddress.split(':').at(-1));
    // The bare baseline: N + WARMUP waiting workflows for each run.
    const baselineIds = (run: string) => Array.from({ length: N + WARMUP }, (_, i) => `baseline-${run}-${i}`);
    const [baselineOne, baselineRate] = [baselineIds('one'), baselineIds('rate')];
    await startFloorWorkflows(client, taskQueue, receiver, [...baselineOne, ...baselineRate]);
    const signal = floorPayer(client, receiver);
    const baselineParties = { temporalPort, baselineWorker: baselineWorker.pid };
    for (const [label, ids, pace] of [
      [inFlight, baselineOne, { concurrency: CONCURRENCY }],
      [sustained, baselineRate, { rate: RATE }],
    ] as const) {
      await payAll(ids.slice(0, WARMUP), signal, { concurrency: CONCURRENCY });
      await measured(`bare baseline, ${label}`, baselineParties, ids.slice(WARMUP), () => payAll(ids.slice(WARMUP), signal, pace));
    }
    await stopProcess(baselineWorker);

    const chargeIds = await payments.charges(receiver, 2 * (N + WARMUP));
    const pay = payments.payer(receiver);
    const engineParties = { temporalPort, engine: engine.pid, database: new URL(engine.databaseUrl).pathname.slice(1) };
    for (const [label, ids, pace] of [
      [inFlight, chargeIds.slice(0, N + WARMUP), { concurrency: CONCURRENCY }],
      [sustained, chargeIds.slice(N + WARMUP), { rate: RATE }],
    ] as const) {
      await payAll(ids.slice(0, WARMUP), pay, { concurrency: CONCURRENCY });
      await measured(`payments, ${label}`, engineParties, ids.slice(WARMUP), () => payAll(ids.slice(WARMUP), pay, pace));
    }
  });

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
  const byLabel = (label: string) => runs.find((r) => r.label === label)!;
  const one = byLabel(`payments, ${inFlight}`);
  const met = quantile(one.fromApproval, 0.5) <= TARGET_P50_MS && quantile(one.fromApproval, 0.99) <= TARGET_P99_MS;
  console.log(`\ntarget with ${inFlight}: p50 ≤ ${TARGET_P50_MS} ms and p99 ≤ ${TARGET_P99_MS} ms: ${met ? 'met' : 'NOT met'}`);
  if (CONCURRENCY === 1) console.log(floorRatioLine({ floor: byLabel(`bare baseline, ${inFlight}`), payments: one }));
}

await main();
