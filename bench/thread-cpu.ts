// CPU per thread group of a Node process that runs a Temporal worker (the engine, the baseline worker),
// from /proc/<pid>/task: where a process's CPU per operation goes. Node 20 leaves its threads named after
// the process ("node"); the SDK's Rust core names its own (tokio-runtime-w, workflow-proces…). Groups:
// - main: the thread whose id is the process's, the event loop (HTTP, PostgreSQL, activities, the SDK's
//   worker plumbing, its messages to the workflow thread);
// - workflow: the busiest other "node" thread over the run. Under load that is the SDK's workflow thread
//   (the sandbox: workflow code, the SDK's promise hook and its calls into the VM);
// - other Node: the rest of Node's threads (V8's garbage collection and compiler helpers, libuv's pool);
// - Temporal core: the threads the Rust core names;
// - exited: threads that ended during the run (Node's watchdog threads of the SDK's vm timeouts, one per
//   call into the sandbox), the process's time that no thread alive at the end holds.
import { readdirSync } from 'node:fs';
import { printTable, processTimes, processTimesIfAlive, ticksToMs } from './measure.js';

export interface ThreadSample {
  pid: number;
  /** utime + stime of the whole process, ended threads included. */
  own: number;
  threads: Map<number, { comm: string; ticks: number }>;
}

/** CPU-ms of each group over a run. */
export interface ThreadCpu {
  main: number;
  workflow: number;
  otherNode: number;
  core: number;
  exited: number;
}

export function sampleThreads(pid: number): ThreadSample | undefined {
  try {
    const threads = new Map<number, { comm: string; ticks: number }>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const thread = processTimesIfAlive(pid, tid);
      if (thread) threads.set(Number(tid), { comm: thread.comm, ticks: thread.own });
    }
    return { pid, own: processTimes(pid).own, threads };
  } catch {
    return undefined; // the process is gone
  }
}

export function threadCpu(before: ThreadSample, after: ThreadSample): ThreadCpu {
  const nodeName = after.threads.get(after.pid)?.comm;
  const used = [...after.threads].map(([tid, { comm, ticks }]) => ({ tid, comm, ticks: ticks - (before.threads.get(tid)?.ticks ?? 0) }));
  const others = used.filter((t) => t.tid !== after.pid && t.comm === nodeName).sort((a, b) => b.ticks - a.ticks);
  const sum = (threads: { ticks: number }[]) => threads.reduce((total, t) => total + t.ticks, 0);
  return {
    main: ticksToMs(sum(used.filter((t) => t.tid === after.pid))),
    workflow: ticksToMs(sum(others.slice(0, 1))),
    otherNode: ticksToMs(sum(others.slice(1))),
    core: ticksToMs(sum(used.filter((t) => t.comm !== nodeName))),
    exited: ticksToMs(after.own - before.own - sum(used)),
  };
}

/** Run × process: CPU-ms per operation of each thread group. */
export function printThreadTable(rows: { label: string; process: string; operations: number; threads: ThreadCpu }[]): void {
  printTable(
    ['CPU-ms per operation, by thread', 'process', 'main', 'workflow', 'other Node', 'Temporal core', 'exited'],
    rows.map(({ label, process, operations, threads }) => [
      label,
      process,
      ...[threads.main, threads.workflow, threads.otherNode, threads.core, threads.exited].map((ms) => (ms / operations).toFixed(2)),
    ]),
  );
}
