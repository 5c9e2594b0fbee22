// Node processes a bench starts beside itself (the baseline worker, the engine's roles): started from the
// repository's root (with tsx when they run a TypeScript file), killed if the bench exits first.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Spawns `node <args>` and resolves once `ready()` says so (it fails if the process exits first). */
export function spawnProcess(
  args: string[],
  env: Record<string, string>,
  ready: (output: () => string) => Promise<boolean>,
): Promise<ChildProcess> {
  const loader = args.some((arg) => arg.endsWith('.ts')) ? ['--import', 'tsx'] : [];
  return startProcess(process.execPath, [...loader, ...args], env, ready);
}

/** Spawns `command <args>` and resolves once `ready()` says so (it fails if the process exits first). */
export async function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: (output: () => string) => Promise<boolean>,
): Promise<ChildProcess> {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-10_000);
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    if (await ready(() => out).catch(() => false)) return child;
    await sleep(100);
  }
  throw new Error(`${args.join(' ')} not ready within 90 s`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The baseline worker (bench/baseline/worker.ts) on its own task queue of the Temporal server at `address`. */
export function startBaselineWorker(address: string, taskQueue: string): Promise<ChildProcess> {
  return spawnProcess(['bench/baseline/worker.ts'], { TEMPORAL_ADDRESS: address, BASELINE_TASK_QUEUE: taskQueue }, async (output) =>
    output().includes('baseline worker running'),
  );
}
