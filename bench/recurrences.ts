// Pix Automático at scale (issue 29): N active monthly recurrences on the simulator route.
//
// The cycle charges of N recurrences all fall on one creation day (RECURRENCE_LEAD_DAYS before their
// due date, 00:00 São Paulo), which a real Temporal server would make the bench wait for. So the engine
// (`src/main.ts all`, its real API, worker, activities and a fresh PostgreSQL database) runs against
// Temporal's time-skipping test server (TEMPORAL_ADDRESS; the executable npm install put in .tools/bin),
// whose clock the bench moves forward. Two engines, one after the other, each on a test server of its own:
//
// 1. A year: one recurrence created through POST /v1/recurrences, authorized through the simulator, then
//    the server's clock moved 365 days on. Reported: the recurrence workflow's history events over the year
//    (every run: it continues as new), its cycle charges and their charge workflows' events.
// 2. The burst: N recurrences created through the API (CONCURRENCY in flight, API keys in rotation under their
//    quota), all with the same first due date (today + FIRST_DUE_IN_DAYS), each authorized through
//    POST /admin/simulator/recurrences/{id}/authorize; then IDLE_S idle, and the engine's RSS (VmRSS from
//    /proc; the test server is a process of its own, not counted). Then the server's clock is moved to one
//    second past 00:00 of the creation day: the N workflows' timers fire at that same instant. Measured on
//    the wall clock, from the moment the clock moved: until the first and the last cycle charge is at the
//    route (its `simulator_charges` row, written when the route issued its BR Code; PostgreSQL's
//    `created_at`), and the engine's RSS after IDLE_S more with N recurrences and N pending cycle charges.
//
//   node --import tsx bench/recurrences.ts [N=10000] [CONCURRENCY=16] [IDLE_S=120]
//
// BENCH_YEAR=0 leaves out the year.
//
// The activities see the machine's clock, the workflows the server's: the due dates are far enough ahead
// that every check the API and the activities make in real time holds after the skip.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'node:http';
import type proto from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Client } from '@temporalio/client';
import { connect } from '../src/db/database.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../contracts/calendar.js';
import { chargeWorkflowId } from '../src/charges/contract.js';
import { CYCLES_PER_RUN, recurrenceWorkflowId } from '../src/recurrences/contract.js';
import { timeSkippingEnvironment } from '../scripts/time-skipping-temporal.js';
import { startEngine, type BenchEngine } from './engine.js';
import { jsonCalls, quantile } from './measure.js';
import { mb, memoryKb } from './process-memory.js';

const N = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const IDLE_S = Number(process.argv[4] ?? 120);
/** RECURRENCE_LEAD_DAYS's default: the engine is started with it. */
const LEAD_DAYS = 7;
const FIRST_DUE_IN_DAYS = 10;
const DAY_MS = 86_400_000;
/** Recurrences per API key, below the 100-per-minute quota whatever the rate. */
const PER_KEY = 90;
/** How long the bench waits for the N cycle charges after the skip before it reports what it has. */
const BURST_DEADLINE_MS = 60 * 60_000;

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY + 2 });
const call = jsonCalls(agent);
const out = (line: string) => process.stdout.write(`${line}\n`);
const today = saoPauloDate(new Date());
const firstDueDate = addDays(today, FIRST_DUE_IN_DAYS);
const creationDay = addDays(firstDueDate, -LEAD_DAYS);
/** The machine's 1, 5 and 15-minute load averages: the times here are indicative on a shared machine. */
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A time-skipping test server with the engine's search attributes, and an engine on it. */
async function engineOnTimeSkippingServer(): Promise<{ env: TestWorkflowEnvironment; engine: BenchEngine }> {
  const env = await timeSkippingEnvironment();
  try {
    const engine = await startEngine({ TEMPORAL_ADDRESS: env.address, RECURRENCE_LEAD_DAYS: String(LEAD_DAYS) });
    return { env, engine };
  } catch (err) {
    await env.teardown();
    throw err;
  }
}

/** A company account (recurrences need a CNPJ receiver) and `count` payments:write keys. */
async function merchantKeys(engine: BenchEngine, count: number): Promise<string[]> {
  const admin = (path: string, body: unknown) => call(engine.adminPort, 'POST', `/admin${path}`, engine.adminHeaders, body);
  const account = await admin('/accounts', {
    name: 'Academia Bench Recorrente',
    document: '11222333000181',
    email: 'recorrente@example.com',
    kycStatus: 'approved',
  });
  if (account.status !== 201) throw new Error(`account creation answered ${account.status}`);
  const keys: string[] = [];
  for (let i = 0; i < count; i += 1) {
    keys.push((await admin(`/accounts/${account.body.data.id}/api-keys`, { permissions: ['payments:write'] })).body.data.key);
  }
  return keys;
}

const recurrenceBody = (i: number) => ({
  payer: { name: 'Maria da Silva', document: '52998224725' },
  contract: `bench-${i}`,
  description: 'Mensalidade bench',
  frequency: 'monthly',
  firstDueDate,
  amount: 99.9,
});

/** Runs `task(i)` for i in [0, count), CONCURRENCY at a time. */
async function inFlight(count: number, task: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) await task(i);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Creates and authorizes `count` recurrences: their ids, and the creation and authorization figures. */
async function activeRecurrences(engine: BenchEngine, keys: string[], count: number) {
  const ids: string[] = [];
  const createMs: number[] = [];
  const authorizeMs: number[] = [];
  const createSeconds = await inFlight(count, async (i) => {
    const headers = { authorization: `Bearer ${keys[Math.floor(i / PER_KEY)]}`, 'idempotency-key': `recurrence-${i}` };
    const answer = await call(engine.port, 'POST', '/v1/recurrences', headers, recurrenceBody(i));
    if (answer.status !== 201) throw new Error(`recurrence ${i} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    ids[i] = answer.body.data.id;
    createMs.push(answer.ms);
    if ((i + 1) % 1000 === 0) out(`  ${i + 1} recurrences created`);
  });
  const authorizeSeconds = await inFlight(count, async (i) => {
    const answer = await call(engine.adminPort, 'POST', `/admin/simulator/recurrences/${ids[i]}/authorize`, engine.adminHeaders);
    if (answer.status !== 200) throw new Error(`authorize ${ids[i]} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    authorizeMs.push(answer.ms);
    if ((i + 1) % 1000 === 0) out(`  ${i + 1} recurrences authorized`);
  });
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  const figures = (seconds: number, ms: number[]) =>
    `${(count / seconds).toFixed(1)}/s, p50 ${quantile(sorted(ms), 0.5).toFixed(0)} ms, p99 ${quantile(ms, 0.99).toFixed(0)} ms`;
  return { ids, created: figures(createSeconds, createMs), authorized: figures(authorizeSeconds, authorizeMs) };
}

/** History events of every run of `workflowId`, from the latest back along continue-as-new: per run, oldest first. */
async function eventsPerRun(client: Client, workflowId: string): Promise<number[]> {
  const counts: number[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history: proto.temporal.api.history.v1.IHistory = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    counts.unshift(events.length);
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return counts;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Phase 1: one recurrence over a year of monthly cycles; the history events it and its cycles' charges leave. */
async function aYear(): Promise<void> {
  out(`\n1. a year of one monthly recurrence (first due ${firstDueDate}), on the time-skipping server`);
  const { env, engine } = await engineOnTimeSkippingServer();
  const sql = connect(engine.databaseUrl, { max: 1 });
  try {
    const keys = await merchantKeys(engine, 1);
    const [id] = (await activeRecurrences(engine, keys, 1)).ids;
    const startedMs = await env.currentTimeMs();
    await env.sleep(365 * DAY_MS);
    const [row] = await sql<{ accountId: string; externalId: string; status: string }[]>`
      select account_id as "accountId", external_id as "externalId", status from recurrences where id = ${id!}`;
    const runs = await eventsPerRun(env.client, recurrenceWorkflowId(row!.accountId, row!.externalId));
    const cycles = await sql<{ externalId: string; dueDate: string; status: string }[]>`
      select external_id as "externalId", due_date::text as "dueDate", status || case when expired then ' (expired)' else '' end as status from transactions where recurrence_id = ${id!} order by due_date`;
    const chargeEvents = await Promise.all(
      cycles.map(async (c) => sum(await eventsPerRun(env.client, chargeWorkflowId(row!.accountId, c.externalId)))),
    );
    const days = ((await env.currentTimeMs()) - startedMs) / DAY_MS;
    out(
      `recurrence after ${days.toFixed(0)} days (server clock): ${row!.status}; ${cycles.length} cycle charges ` +
        `(due ${cycles[0]?.dueDate} … ${cycles.at(-1)?.dueDate}; ${[...new Set(cycles.map((c) => c.status))].join(', ')})`,
    );
    out(
      `history events per recurrence per year: ${sum(runs)} (recurrence workflow, ${runs.length} runs of at most ${CYCLES_PER_RUN} cycles: ${runs.join(' + ')} events)`,
    );
    out(
      `history events of its ${cycles.length} cycle charges (their charge workflows): ${sum(chargeEvents)} ` +
        `(${(sum(chargeEvents) / Math.max(cycles.length, 1)).toFixed(0)} per charge); recurrence and charges together: ${sum(runs) + sum(chargeEvents)} a year`,
    );
  } finally {
    await sql.end();
    await engine.stop();
    await env.teardown();
  }
}

/** Cycle charges of the bench's recurrences at the route: how many, the first and last `created_at`. */
async function atRoute(sql: ReturnType<typeof connect>) {
  const [row] = await sql<{ n: number; first: Date | null; last: Date | null }[]>`
    select count(*)::int as n, min(s.created_at) as first, max(s.created_at) as last
    from simulator_charges s join transactions t on t.id = s.transaction_id where t.recurrence_id is not null`;
  return row!;
}

/** Phase 2: N active recurrences idle, then all their cycle charges on one creation day. */
async function theBurst(): Promise<void> {
  out(
    `\n2. ${N} monthly recurrences, all due first on ${firstDueDate}: their cycle charges are created on ${creationDay} (${LEAD_DAYS} days before)`,
  );
  const { env, engine } = await engineOnTimeSkippingServer();
  const sql = connect(engine.databaseUrl, { max: 2 });
  const rss = (label: string) => {
    const { rss: kb, peak } = memoryKb(engine.pid);
    out(`engine RSS ${label}: ${mb(kb)} MB (peak so far ${mb(peak)} MB)`);
    return kb;
  };
  try {
    const keys = await merchantKeys(engine, Math.ceil(N / PER_KEY));
    const beforeKb = rss('before the recurrences');
    const run = await activeRecurrences(engine, keys, N);
    out(`created ${N} recurrences (${run.created}), authorized them (${run.authorized})`);
    // The simulator answers once the workflow took the authorization or the accept wait ran out: wait for all.
    const activeCount = async () => (await sql<{ n: number }[]>`select count(*)::int as n from recurrences where status = 'active'`)[0]!.n;
    const authorizedAt = Date.now();
    for (let active = await activeCount(); active < N; active = await activeCount()) {
      if (Date.now() - authorizedAt > BURST_DEADLINE_MS) throw new Error(`only ${active} of ${N} recurrences active`);
      out(`  ${active} of ${N} recurrences active`);
      await sleep(15_000);
      // On the test server an update abandoned after the accept wait can be lost: the payer authorizes again.
      const pending = await sql<{ id: string }[]>`select id from recurrences where status = 'pending_authorization'`;
      await inFlight(pending.length, async (i) => {
        await call(engine.adminPort, 'POST', `/admin/simulator/recurrences/${pending[i]!.id}/authorize`, engine.adminHeaders);
      });
    }
    const [cycles] = await sql<{ n: number }[]>`select count(*)::int as n from transactions where recurrence_id is not null`;
    out(
      `all ${N} recurrences active ${((Date.now() - authorizedAt) / 1000).toFixed(0)} s after the last answer; cycle charges so far: ${cycles!.n}`,
    );
    rss('right after authorizing them');
    await sleep(IDLE_S * 1000);
    const idleKb = rss(`with ${N} active recurrences after ${IDLE_S} s idle`);
    out(
      `  that is +${mb(idleKb - beforeKb)} MB over the RSS before them, ${((((idleKb - beforeKb) / 1024) * 1000) / N).toFixed(1)} MB per 1000 active recurrences`,
    );

    const skipMs = startOfSaoPauloDay(creationDay).getTime() + 1000 - (await env.currentTimeMs());
    out(
      `moving the test server's clock ${(skipMs / DAY_MS).toFixed(2)} days on, to 00:00:01 of ${creationDay} (São Paulo); load ${load()}`,
    );
    const burstStarted = new Date();
    await env.sleep(skipMs);
    out(`  the server's clock got there after ${((Date.now() - burstStarted.getTime()) / 1000).toFixed(1)} s`);
    let seen = await atRoute(sql);
    let peakDuringKb = 0;
    while (seen.n < N && Date.now() - burstStarted.getTime() < BURST_DEADLINE_MS) {
      await sleep(1000);
      seen = await atRoute(sql);
      peakDuringKb = Math.max(peakDuringKb, memoryKb(engine.pid).rss);
      if (Math.floor((Date.now() - burstStarted.getTime()) / 1000) % 15 === 0)
        out(
          `  ${((Date.now() - burstStarted.getTime()) / 1000).toFixed(0)} s: ${seen.n} cycle charges at the route, engine RSS ${mb(memoryKb(engine.pid).rss)} MB`,
        );
    }
    const since = (at: Date | null) => (at ? ((at.getTime() - burstStarted.getTime()) / 1000).toFixed(1) : '–');
    const lastS = seen.last ? (seen.last.getTime() - burstStarted.getTime()) / 1000 : NaN;
    out(
      `cycle charges at the route: ${seen.n} of ${N}; first ${since(seen.first)} s, last ${since(seen.last)} s after the creation day came ` +
        `(${(seen.n / lastS).toFixed(1)} charges/s); engine RSS at most ${mb(peakDuringKb)} MB while creating them`,
    );
    await sleep(IDLE_S * 1000);
    const afterKb = rss(`with ${N} recurrences and their ${seen.n} pending cycle charges after ${IDLE_S} s idle`);
    out(`  that is +${mb(afterKb - idleKb)} MB over the idle RSS before the creation day`);
  } finally {
    await sql.end();
    agent.destroy();
    await engine.stop();
    await env.teardown();
  }
}

async function main() {
  out(`recurrences bench: ${N} recurrences, ${CONCURRENCY} requests in flight, ${IDLE_S} s idle; RECURRENCE_LEAD_DAYS ${LEAD_DAYS}`);
  if (process.env.BENCH_YEAR !== '0') await aYear();
  await theBurst();
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
