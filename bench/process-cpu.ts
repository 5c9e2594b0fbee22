// CPU time per process during a bench run, from /proc: every process of the machine read at once before
// and after the run, so each party's share of an operation (and of the machine's busy time) is visible.
//
// A party is a process tree: its live members' utime + stime, plus their cutime + cstime, which hold
// the children they reaped (a PostgreSQL backend that exited, for instance). PostgreSQL is every
// process tree whose root is a `postgres` process with a non-postgres parent (the postmaster): its
// helpers, and the backends of every database, this bench's and anyone else's on the machine.
import { readdirSync, readFileSync } from 'node:fs';
import { printTable, processTimesIfAlive, ticksToMs, type ProcessTimes } from './measure.js';
import { sampleThreads, threadCpu, type ThreadCpu, type ThreadSample } from './thread-cpu.js';

export interface CpuParties {
  engine?: number;
  /** The Temporal dev server's port: its process is found by its command line. */
  temporalPort: number;
  baselineWorker?: number;
  /** This bench's database, whose backends are also shown on their own. */
  database?: string;
  /** More process trees, by name (the api and worker processes of bench/workers.ts). */
  named?: Record<string, number>;
}

interface CpuSample {
  at: number;
  processes: Map<number, ProcessTimes>;
  /** This process alone (the load generator), in ms. */
  loadGeneratorMs: number;
  /** Busy time of all CPUs (all but idle and iowait), in clock ticks. */
  machineBusy: number;
}

/** CPU-ms each party used over a run; null for a party the run does not have. */
export interface CpuUse {
  elapsedMs: number;
  engine: number | null;
  temporal: number;
  postgres: number;
  /** Of `postgres`: the live backends connected to this bench's database. */
  benchDatabaseBackends: number | null;
  loadGenerator: number;
  baselineWorker: number | null;
  /** The trees of `CpuParties.named`, by the same names. */
  named: Record<string, number>;
  machine: number;
  /** The engine's and the baseline worker's CPU by thread (bench/thread-cpu.ts), when the run has them. */
  threads: { engine: ThreadCpu | null; baselineWorker: ThreadCpu | null };
}

function machineBusyTicks(): number {
  const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
  return times.slice(0, 8).reduce((sum, t) => sum + t!, 0) - times[3]! - times[4]!;
}

function sampleCpu(): CpuSample {
  const processes = new Map<number, ProcessTimes>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = processTimesIfAlive(entry);
    if (times) processes.set(Number(entry), times);
  }
  const usage = process.cpuUsage();
  return { at: performance.now(), processes, loadGeneratorMs: (usage.user + usage.system) / 1000, machineBusy: machineBusyTicks() };
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** The `temporal server start-dev` listening on `port` (src/temporal/dev-server.ts does not expose its pid). */
function devServerPid(sample: CpuSample, port: number): number {
  for (const pid of sample.processes.keys()) {
    const args = commandLine(pid);
    if (args.includes('start-dev') && args[args.indexOf('--port') + 1] === String(port)) return pid;
  }
  throw new Error(`no temporal dev server on port ${port} in /proc`);
}

/** Clock ticks of the trees rooted at `roots`, in `sample`, without the subtrees rooted at `without`. */
function treeTicks(sample: CpuSample, roots: number[], without: number[] = []): number {
  const children = new Map<number, number[]>();
  for (const [pid, p] of sample.processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let ticks = 0;
  const pending = [...roots];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    const p = sample.processes.get(pid);
    if (!p || without.includes(pid)) continue;
    ticks += p.own + p.reaped;
    pending.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

function postmasters(sample: CpuSample): number[] {
  return [...sample.processes]
    .filter(([, p]) => p.comm === 'postgres' && sample.processes.get(p.ppid)?.comm !== 'postgres')
    .map(([pid]) => pid);
}

/** A backend's process title is `postgres: [<cluster>: ]<user> <database> <client> <activity>`. */
function databaseBackendTicks(sample: CpuSample, database: string): number {
  let ticks = 0;
  for (const [pid, p] of sample.processes) {
    if (p.comm === 'postgres' && commandLine(pid)[0]?.includes(` ${database} `)) ticks += p.own;
  }
  return ticks;
}

/** Runs `run` and returns its result with the CPU each party used meanwhile. */
export async function measureCpu<T>(parties: CpuParties, run: () => Promise<T>): Promise<[T, CpuUse]> {
  const threadsOf = (pid: number | undefined) => (pid === undefined ? undefined : sampleThreads(pid));
  const threadsUsed = (start: ThreadSample | undefined, pid: number | undefined) => {
    const end = threadsOf(pid);
    return start && end ? threadCpu(start, end) : null;
  };
  const threadsBefore = { engine: threadsOf(parties.engine), baselineWorker: threadsOf(parties.baselineWorker) };
  const before = sampleCpu();
  const result = await run();
  const after = sampleCpu();
  const temporal = devServerPid(after, parties.temporalPort);
  const delta = (ticks: (sample: CpuSample) => number) => ticksToMs(ticks(after) - ticks(before));
  // An engine that embeds its Temporal dev server has it as a child: the server is counted on its own.
  const tree = (pid: number | undefined) => (pid === undefined ? null : delta((s) => treeTicks(s, [pid], [temporal])));
  return [
    result,
    {
      elapsedMs: after.at - before.at,
      engine: tree(parties.engine),
      temporal: delta((s) => treeTicks(s, [temporal])),
      postgres: delta((s) => treeTicks(s, postmasters(s))),
      benchDatabaseBackends: parties.database === undefined ? null : delta((s) => databaseBackendTicks(s, parties.database!)),
      loadGenerator: after.loadGeneratorMs - before.loadGeneratorMs,
      baselineWorker: tree(parties.baselineWorker),
      named: Object.fromEntries(Object.entries(parties.named ?? {}).map(([name, pid]) => [name, tree(pid)!])),
      machine: delta((s) => s.machineBusy),
      threads: {
        engine: threadsUsed(threadsBefore.engine, parties.engine),
        baselineWorker: threadsUsed(threadsBefore.baselineWorker, parties.baselineWorker),
      },
    },
  ];
}

/** Run × party: CPU-ms per operation, the machine's busy CPU per operation and what no party accounts for. */
export function printCpuTable(rows: { label: string; operations: number; cpu: CpuUse }[]): void {
  const perOp = (ms: number | null, operations: number) => (ms === null ? '-' : (ms / operations).toFixed(2));
  printTable(
    [
      'CPU-ms per operation',
      'ops',
      'engine',
      'Temporal',
      'PostgreSQL',
      '(bench db)',
      'load gen',
      'baseline worker',
      'machine',
      'other',
      'cores busy',
    ],
    rows.map(({ label, operations, cpu }) => {
      const parties = (cpu.engine ?? 0) + cpu.temporal + cpu.postgres + cpu.loadGenerator + (cpu.baselineWorker ?? 0);
      return [
        label,
        String(operations),
        ...[
          cpu.engine,
          cpu.temporal,
          cpu.postgres,
          cpu.benchDatabaseBackends,
          cpu.loadGenerator,
          cpu.baselineWorker,
          cpu.machine,
          cpu.machine - parties,
        ].map((ms) => perOp(ms, operations)),
        (cpu.machine / cpu.elapsedMs).toFixed(2),
      ];
    }),
  );
}
