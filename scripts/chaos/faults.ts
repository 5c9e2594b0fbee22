// Faults at random moments (the first 1 to 4 s into the faulty phase, so that a short campaign meets
// one too, then every 4 to 10 s) while the workload runs: kill -9 of a worker (only while
// both serve, so the other one is there to take over) or of the api (only while it serves), each
// restarted in the background after a short random pause; kill -9 of the Temporal dev server once, in
// the middle of the faulty phase; termination of every connection to the database. Every fault is
// kept on a timeline for the latency figures.
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, EngineProcess } from './cluster.js';

export type FaultKind = 'worker_kill' | 'api_kill' | 'temporal_kill' | 'db_terminate';

export interface Fault {
  kind: FaultKind;
  target: string;
  atMs: number;
  /** When the killed process served again. */
  recoveredAtMs: number;
}

export class FaultInjector {
  readonly timeline: Fault[] = [];
  private stopped = false;
  private loop: Promise<void> | null = null;
  private readonly restarts: Promise<void>[] = [];
  /** Restart failures: a process that would not come back is a finding. */
  readonly errors: string[] = [];

  private temporalDue = false;
  private temporalDone = false;

  constructor(private readonly cluster: Cluster) {}

  /** The next fault kills Temporal (once per campaign). */
  killTemporalNext(): void {
    this.temporalDue = true;
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        await sleep(this.timeline.length === 0 ? randomInt(1000, 4000) : randomInt(4000, 10_000));
        if (this.stopped) break;
        try {
          if (this.temporalDue && !this.temporalDone) {
            this.temporalDone = true;
            await this.record('temporal_kill', 'temporal', () => this.cluster.killTemporal(randomInt(500, 3000)));
            continue;
          }
          const roll = randomInt(100);
          if (roll < 45) this.killWorker();
          else if (roll < 80) await this.record('db_terminate', 'postgresql', async () => void (await this.cluster.terminateConnections()));
          else this.killAndRestart(this.cluster.processes.find((p) => p.role === 'api')!);
        } catch (err) {
          this.errors.push((err as Error).message);
        }
      }
    })();
  }

  /** Stops injecting and waits for every restart under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    await Promise.all(this.restarts);
  }

  private async record(kind: FaultKind, target: string, act: () => Promise<void>): Promise<void> {
    const atMs = Date.now();
    const fault: Fault = { kind, target, atMs, recoveredAtMs: atMs };
    this.timeline.push(fault);
    await act();
    fault.recoveredAtMs = Date.now();
  }

  /** Kills one worker while both run, so that the other one is there to take over. */
  private killWorker(): void {
    const workers = this.cluster.processes.filter((p) => p.role === 'worker');
    if (workers.every((w) => w.running)) this.killAndRestart(workers[randomInt(workers.length)]!);
  }

  /** kill -9, then a restart after a short pause, in the background (faults go on meanwhile). */
  private killAndRestart(proc: EngineProcess): void {
    if (!proc.running) return;
    const restart = this.record(proc.role === 'api' ? 'api_kill' : 'worker_kill', proc.name, async () => {
      await this.cluster.kill(proc);
      await sleep(randomInt(0, 2000));
      await this.restart(proc);
    });
    this.restarts.push(restart);
  }

  /**
   * Starts the process again as a supervisor would: a start that fails (a finding, kept in `errors`)
   * is tried again, up to three times.
   */
  async restart(proc: EngineProcess): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      try {
        await this.cluster.spawn(proc.role, proc.name);
        return;
      } catch (err) {
        this.errors.push(`${new Date().toISOString()} restart ${attempt} of ${(err as Error).message}`);
      }
    }
  }
}
