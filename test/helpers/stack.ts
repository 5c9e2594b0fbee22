// Starts the engine as real processes (`sh scripts/launch.sh <build>/src/main.js <role>`: the run's build of it,
// launched as `npm start` launches dist/) against the run's Temporal dev server and a fresh PostgreSQL database,
// and talks to it over HTTP like an integrator.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freshDatabaseUrl } from './database.js';
import { TEST_PAYLOAD_KEYS_FILE } from './payload-keys.js';
import { freePort } from '../../src/runtime/free-port.js';
import { engineLaunch } from '../../scripts/launch.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ADMIN_TOKEN = 'test-admin-token';

export interface EngineProcess {
  role: string;
  child: ChildProcess;
  output(): string;
  /** Graceful stop (SIGTERM) and wait. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, nothing finishes. */
  kill(): Promise<void>;
}

export interface Stack {
  baseUrl: string; // http://127.0.0.1:PORT/v1
  rootUrl: string; // http://127.0.0.1:PORT
  adminUrl: string; // http://127.0.0.1:ADMIN_PORT/admin
  databaseUrl: string;
  taskQueue: string;
  env: Record<string, string>;
  processes: EngineProcess[];
  stop(): Promise<void>;
}

export interface StackOptions {
  env?: Record<string, string>;
  /** `all` (default) runs API and worker in one process; `split` runs an `api` and a `worker` process. */
  layout?: 'all' | 'split';
  databaseUrl?: string;
  taskQueue?: string;
}

/** `entry`: src/main.ts, or src/dev.ts (`npm run dev`, which runs main.ts's `all`), run from the run's build of the engine. */
export function spawnEngine(role: 'all' | 'api' | 'worker', env: Record<string, string>, entry = 'src/main.ts'): EngineProcess {
  const [command, args] = engineLaunch(join(inject('engineBuildDir'), entry.replace(/\.ts$/, '.js')), role);
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    role,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function waitReady(rootUrl: string, proc: EngineProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`engine exited (${proc.child.exitCode}):\n${proc.output().slice(-3000)}`);
    try {
      const res = await fetch(`${rootUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`engine not ready in ${timeoutMs} ms:\n${proc.output().slice(-3000)}`);
}

/** Waits until the worker logged that it runs (a worker has no HTTP port). */
export async function waitWorker(proc: EngineProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`worker exited (${proc.child.exitCode}):\n${proc.output().slice(-3000)}`);
    if (proc.output().includes('"worker running"')) return;
    await sleep(100);
  }
  throw new Error(`worker not running in ${timeoutMs} ms:\n${proc.output().slice(-3000)}`);
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const databaseUrl = options.databaseUrl ?? freshDatabaseUrl(inject('testRunId'));
  const taskQueue = options.taskQueue ?? `pix-test-${randomBytes(4).toString('hex')}`;
  const env: Record<string, string> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_HOST: '127.0.0.1',
    ADMIN_PORT: String(adminPort),
    ADMIN_TOKEN,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: taskQueue,
    TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
    WEBHOOK_ALLOW_INSECURE: 'true',
    LOG_LEVEL: 'info',
    PAYLOAD_KEYS_FILE: TEST_PAYLOAD_KEYS_FILE,
    // The Temporal server is shared by every test file: only a test of the schedules makes them.
    RECONCILE_AT: 'off',
    ...options.env,
  };
  const rootUrl = `http://127.0.0.1:${port}`;
  const processes: EngineProcess[] = [];
  const stack: Stack = {
    baseUrl: `${rootUrl}/v1`,
    rootUrl,
    adminUrl: `http://127.0.0.1:${adminPort}/admin`,
    databaseUrl,
    taskQueue,
    env,
    processes,
    stop: async () => {
      await Promise.all(processes.map((p) => p.stop()));
    },
  };
  try {
    if ((options.layout ?? 'all') === 'all') {
      processes.push(spawnEngine('all', env));
      await waitReady(rootUrl, processes[0]!);
    } else {
      processes.push(spawnEngine('api', env));
      await waitReady(rootUrl, processes[0]!);
      processes.push(spawnEngine('worker', env));
      await waitWorker(processes[1]!);
    }
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function http<T = any>(
  method: string,
  url: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Calls the admin API with the stack's token. */
export function admin<T = any>(stack: Stack, method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
  return http<T>(method, `${stack.adminUrl}${path}`, { body, token: ADMIN_TOKEN });
}
