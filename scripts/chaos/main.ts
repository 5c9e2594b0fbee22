// npm run chaos [OPS=300] [SECONDS=1800]: a fault-injection campaign against an engine of its own
// (Temporal dev server, fresh PostgreSQL database, one api and two worker processes, all on
// 127.0.0.1). A baseline share of the OPS operations runs without faults; the rest runs while workers,
// the api and (once) Temporal are killed with SIGKILL and the database's connections are terminated,
// every client retrying with the same key until final. No operation starts after SECONDS. Then it
// waits for everything to settle, checks the invariants, prints the figures and exits 1 on any
// violation. Logs of every process stay in the run directory it prints; the database is kept when
// something failed (its URL is printed), dropped otherwise.
//
// CHAOS_PG_URL (default postgres://postgres@127.0.0.1:5432) is where the database is created;
// CHAOS_LANES (default 6) how many operations run at once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckResult } from './check-result.js';
import { runChecks, unsettled } from './checks.js';
import { RetryingClient } from './client.js';
import { Cluster } from './cluster.js';
import { FaultInjector } from './faults.js';
import { paymentLatencies, type Latencies } from './latency.js';
import { WebhookReceiver } from './receiver.js';
import { Workload } from './workload.js';

const OPS = Number(process.argv[2] ?? 300);
const SECONDS = Number(process.argv[3] ?? 1800);
const LANES = Number(process.env.CHAOS_LANES ?? 6);
const CHARGE_TTL_SECONDS = 20;
const SETTLE_LIMIT_MS = 180_000;
/** Share of the operations run before the first fault, for the baseline latency. */
const BASELINE_SHARE = 0.15;

const ms = (value: number) => (Number.isNaN(value) ? '-' : `${Math.round(value)}`);

async function settle(cluster: Cluster, receiver: WebhookReceiver): Promise<string[]> {
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  let left: string[] = [];
  while (Date.now() < deadline) {
    left = await unsettled(cluster.sql!, () => receiver.deliveries());
    if (left.length === 0) return [];
    await sleep(1000);
  }
  return left;
}

function print(lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

function report(input: {
  runDir: string;
  elapsedS: number;
  workload: Workload;
  client: RetryingClient;
  injector: FaultInjector;
  receiver: WebhookReceiver;
  crashed: string[];
  stillMoving: string[];
  checks: CheckResult[];
  latencies: Latencies;
}): number {
  const { workload, client, injector, checks, latencies } = input;
  const ops = [...workload.result.ops.entries()].map(([k, n]) => `${k} ${n}`).join(', ');
  const total = [...workload.result.ops.values()].reduce((a, b) => a + b, 0);
  const faultCounts = new Map<string, number[]>();
  for (const f of injector.timeline) faultCounts.set(f.kind, [...(faultCounts.get(f.kind) ?? []), f.recoveredAtMs - f.atMs]);
  const kills = injector.timeline.filter((f) => f.kind !== 'db_terminate').length;
  const deliveries = input.receiver.deliveries();
  const violations =
    checks.reduce((n, c) => n + c.violations.length, 0) + input.crashed.length + injector.errors.length + input.stillMoving.length;
  const lines = [
    '',
    `Chaos campaign: ${total} operations of ${OPS} in ${input.elapsedS.toFixed(0)} s, ${LANES} at a time (logs: ${input.runDir})`,
    `  operations  ${ops}`,
    `  requests    ${client.requests} sent; repeated after: ${[...client.retries.entries()].map(([c, n]) => `${c} ×${n}`).join(', ') || 'nothing'}`,
    `  faults      ${[...faultCounts.entries()].map(([k, d]) => `${k} ${d.length}`).join(', ') || 'none'} (${kills} kills)`,
    `  back after  ${[...faultCounts.entries()].map(([k, d]) => `${k} ${(d.reduce((a, b) => a + b, 0) / d.length / 1000).toFixed(1)} s avg`).join(', ') || '-'}`,
    `  webhooks    ${deliveries.requests} requests received, ${deliveries.eventIds.size} distinct events verified`,
    ...(input.crashed.length ? [`  CRASHED     ${input.crashed.join('; ')}`] : []),
    ...injector.errors.map((e) => `  RESTART FAILED ${e.split('\n').slice(0, 12).join('\n      ')}`),
    ...(input.stillMoving.length ? [`  NOT SETTLED after ${SETTLE_LIMIT_MS / 1000} s: ${input.stillMoving.join(', ')}`] : []),
    '',
    'Checks',
    ...checks.flatMap((c) => [
      `  ${c.violations.length ? 'FAIL' : 'ok  '}  ${c.name}: ${c.examined} examined, ${c.violations.length} violations`,
      ...c.violations.slice(0, 15).map((v) => `          - ${v}`),
      ...(c.violations.length > 15 ? [`          … ${c.violations.length - 15} more in ${join(input.runDir, 'violations.json')}`] : []),
    ]),
    '',
    'Payment → approved (ms, from the first pay call to the settlement posting)',
    `  ${'group'.padEnd(52)} ${'n'.padStart(5)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}`,
    ...latencies.groups.map(
      (g) =>
        `  ${g.label.padEnd(52)} ${String(g.count).padStart(5)} ${ms(g.p50).padStart(7)} ${ms(g.p99).padStart(7)} ${ms(g.max).padStart(7)}`,
    ),
    `  recovery time (worker killed vs baseline): max +${latencies.recoveryMs === null ? '-' : ms(latencies.recoveryMs)} ms, p99 +${latencies.recoveryP99Ms === null ? '-' : ms(latencies.recoveryP99Ms)} ms`,
    `  slowest: ${latencies.slowest.map((s) => `${s.chargeId} ${ms(s.ms)} ms (${s.faults})`).join('; ')}`,
    '',
    violations ? `${violations} violations` : '0 violations',
  ];
  print(lines);
  writeFileSync(
    join(input.runDir, 'violations.json'),
    JSON.stringify(
      { checks, crashed: input.crashed, restartErrors: injector.errors, stillMoving: input.stillMoving, faults: injector.timeline },
      null,
      2,
    ),
  );
  return violations;
}

async function main(): Promise<number> {
  if (!Number.isInteger(OPS) || OPS < 1 || !(SECONDS > 0)) {
    process.stderr.write('usage: npm run chaos [OPS=300] [SECONDS=1800]\n');
    return 2;
  }
  const runDir = mkdtempSync(join(tmpdir(), 'pix-chaos-'));
  const cluster = new Cluster({
    runDir,
    env: {
      CHARGE_TTL_SECONDS: String(CHARGE_TTL_SECONDS),
      SIMULATOR_TRANSFER_DELAY_MS: '-1',
      WEBHOOK_RETRY_INITIAL_MS: '500',
      WEBHOOK_RETRY_MAX_MS: '4000',
      DATABASE_POOL_SIZE: '5',
    },
  });
  const stopNow = () => {
    cluster.killAllNow();
    process.exit(130);
  };
  process.once('SIGINT', stopNow);
  process.once('SIGTERM', stopNow);
  process.once('exit', () => cluster.killAllNow());

  let violations = 0;
  const receiver = await WebhookReceiver.start();
  try {
    print([`chaos: starting Temporal, the api and 2 workers (run directory ${runDir})`]);
    await cluster.start(2);
    const client = new RetryingClient();
    const workload = new Workload(
      { baseUrl: cluster.baseUrl, adminUrl: cluster.adminUrl, adminToken: cluster.adminToken, sql: cluster.sql! },
      client,
      receiver,
      OPS,
    );
    const injector = new FaultInjector(cluster);
    const baselineOps = Math.max(10, Math.round(OPS * BASELINE_SHARE));
    const temporalAt = baselineOps + Math.round((OPS - baselineOps) * 0.4);
    let faultsFromMs = Infinity;
    workload.onFinished = (finished) => {
      if (finished === baselineOps) {
        faultsFromMs = Date.now();
        injector.start();
        print([`chaos: ${finished} baseline operations done, faults start`]);
      }
      if (finished === temporalAt) injector.killTemporalNext();
      if (finished % 50 === 0) print([`chaos: ${finished} operations done, ${injector.timeline.length} faults so far`]);
    };
    const started = Date.now();
    workload.stopAt = started + SECONDS * 1000;
    await workload.run(LANES);
    const elapsedS = (Date.now() - started) / 1000;
    await injector.stop();

    const crashed = cluster.crashed().map((p) => `${p.name} exited ${p.child.exitCode} by itself (see ${join(runDir, `${p.name}.log`)})`);
    for (const p of cluster.processes.filter((p) => !p.running || p.child.exitCode !== null)) await injector.restart(p);
    print([`chaos: workload done in ${elapsedS.toFixed(0)} s; waiting for everything to settle (at most ${SETTLE_LIMIT_MS / 1000} s)`]);
    const stillMoving = await settle(cluster, receiver);

    const ledger = await client.untilFinal('GET', `${cluster.adminUrl}/ledger/check`, { token: cluster.adminToken });
    const checks = await runChecks(cluster.sql!, ledger.body.data, workload.result, receiver.deliveries(), {
      faults: injector.timeline,
      answeredAtMs: client.answeredAtMs,
      serverErrors: client.serverErrors,
    });
    const latencies = await paymentLatencies(cluster.sql!, workload.result.payments, injector.timeline, faultsFromMs);
    violations = report({ runDir, elapsedS, workload, client, injector, receiver, crashed, stillMoving, checks, latencies });
    return violations ? 1 : 0;
  } finally {
    await receiver.close();
    await cluster.stop(violations > 0);
    if (violations > 0) print([`database kept for inspection: ${cluster.databaseUrl}`]);
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`chaos: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
