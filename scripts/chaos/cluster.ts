// The engine the campaign attacks, all of it its own: a Temporal dev server (history in a file, so a
// kill -9 and a restart lose nothing), a fresh PostgreSQL database, one `api` and two `worker`
// processes (`sh scripts/launch.sh dist/src/main.js <role>`, the build `npm start` runs, launched as it launches it),
// every process on 127.0.0.1 and logging to a
// file of the run directory. Faults: kill -9 of any process (and its restart), and termination of
// every connection to the database.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { connect, type Sql } from '../../src/db/database.js';
import { newPayloadKeysJson } from '../../src/config/payload-keys.js';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server.js';
import { bundleWorkflows } from '../../src/temporal/bundle.js';
import { builtEngineEntry } from '../../bench/engine.js';
import { engineLaunch } from '../launch.mjs';
import { freePort } from '../../src/runtime/free-port.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PG = process.env.CHAOS_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const READY_TIMEOUT_MS = 90_000;

export type Role = 'api' | 'worker';

export interface EngineProcess {
  name: string;
  role: Role;
  /** Serving: from the moment it is ready until it is killed. */
  running: boolean;
  child: ChildProcess;
}

export interface ClusterSettings {
  runDir: string;
  /** Added to every engine process's environment. */
  env: Record<string, string>;
}

export class Cluster {
  readonly adminToken = randomBytes(16).toString('hex');
  readonly database = `pix_chaos_${randomBytes(4).toString('hex')}`;
  readonly databaseUrl = `${PG}/${this.database}`;
  readonly processes: EngineProcess[] = [];
  /** Every api and worker process holds the same payload keys. */
  private readonly payloadKeys = newPayloadKeysJson();
  private temporal: DevServer | null = null;
  private temporalPort = 0;
  private port = 0;
  private adminPort = 0;
  private bundlePath = '';
  private main = '';
  /** The harness's own connection to the engine's database, for waiting and checking. */
  sql: Sql | null = null;

  constructor(private readonly settings: ClusterSettings) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get adminUrl(): string {
    return `http://127.0.0.1:${this.adminPort}/admin`;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.temporalPort}`;
  }

  async start(workers: number): Promise<void> {
    this.temporalPort = await freePort();
    const [bundle, main] = await Promise.all([bundleWorkflows(), builtEngineEntry(), this.startTemporal()]);
    this.main = main;
    // Chosen once the dev server holds its own ports (it binds more than the one it is given).
    [this.port, this.adminPort] = [await freePort(), await freePort()];
    this.bundlePath = join(this.settings.runDir, 'workflows.js');
    writeFileSync(this.bundlePath, bundle);
    // The api migrates the fresh database before the workers start, so they do not race to.
    await this.spawn('api', 'api');
    await Promise.all(Array.from({ length: workers }, (_, i) => this.spawn('worker', `worker-${i + 1}`)));
    this.sql = connect(this.databaseUrl, { max: 4 });
  }

  private async startTemporal(): Promise<void> {
    this.temporal = await startDevServer({
      port: this.temporalPort,
      uiPort: null,
      dbFile: join(this.settings.runDir, 'temporal.sqlite'),
      namespace: 'default',
      searchPath: process.env.PATH ?? '',
    });
  }

  /** kill -9 of the Temporal dev server, then a new one on the same port and history file. */
  async killTemporal(downMs: number): Promise<void> {
    await this.temporal?.kill();
    this.temporal = null;
    await sleep(downMs);
    await this.startTemporal();
  }

  private env(): Record<string, string> {
    return {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(this.port),
      ADMIN_HOST: '127.0.0.1',
      ADMIN_PORT: String(this.adminPort),
      ADMIN_TOKEN: this.adminToken,
      DATABASE_URL: this.databaseUrl,
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_TASK_QUEUE: 'pix-chaos',
      TEMPORAL_WORKFLOW_BUNDLE: this.bundlePath,
      WEBHOOK_ALLOW_INSECURE: 'true',
      PAYLOAD_KEYS: this.payloadKeys,
      LOG_LEVEL: 'info',
      ...this.settings.env,
    } as Record<string, string>;
  }

  /** Starts (or restarts) a process and waits until it serves: /readyz for the api, the worker's "worker running" line. */
  async spawn(role: Role, name: string): Promise<EngineProcess> {
    const log = createWriteStream(join(this.settings.runDir, `${name}.log`), { flags: 'a' });
    const child = spawn(...engineLaunch(this.main, role), {
      cwd: ROOT,
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let started = false;
    let tail = '';
    const collect = (chunk: Buffer) => {
      log.write(chunk);
      if (!started) tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', () => log.end());
    const proc: EngineProcess = { name, role, running: false, child };
    const index = this.processes.findIndex((p) => p.name === name);
    if (index >= 0) this.processes[index] = proc;
    else this.processes.push(proc);

    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(role === 'api' ? await this.apiReady() : tail.includes('"worker running"'))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${name} did not start (exit ${child.exitCode}):\n${tail}`);
      }
      await sleep(100);
    }
    started = true;
    proc.running = true;
    return proc;
  }

  private async apiReady(): Promise<boolean> {
    const res = await fetch(`http://127.0.0.1:${this.port}/readyz`).catch(() => null);
    return res?.status === 200;
  }

  /** kill -9 of one engine process; returns once it is gone. */
  async kill(proc: EngineProcess): Promise<void> {
    proc.running = false;
    if (proc.child.exitCode === null && proc.child.signalCode === null) {
      const exited = new Promise((r) => proc.child.once('exit', r));
      proc.child.kill('SIGKILL');
      await exited;
    }
  }

  /** Ends every connection the engine holds to its database (the harness's own are ended too and reconnect). */
  async terminateConnections(): Promise<number> {
    const admin = connect(`${PG}/postgres`, { max: 1 });
    try {
      const rows = await admin`
        select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = ${this.database} and pid <> pg_backend_pid()`;
      return rows.filter((r) => r.ended).length;
    } finally {
      await admin.end({ timeout: 5 });
    }
  }

  /** Processes that died on their own (not by a fault of the campaign). */
  crashed(): EngineProcess[] {
    return this.processes.filter((p) => p.running && p.child.exitCode !== null);
  }

  /** Stops everything it started; drops the database unless `keepDatabase`. */
  async stop(keepDatabase: boolean): Promise<void> {
    await Promise.all(this.processes.map((p) => this.kill(p)));
    await this.sql?.end({ timeout: 5 }).catch(() => {});
    await this.temporal?.stop().catch(() => {});
    this.temporal = null;
    if (keepDatabase) return;
    const admin = connect(`${PG}/postgres`, { max: 1 });
    try {
      await admin.unsafe(`drop database if exists "${this.database}" with (force)`);
    } finally {
      await admin.end({ timeout: 5 });
    }
  }

  /** Synchronous last resort (process exit): SIGKILL whatever still runs. */
  killAllNow(): void {
    for (const p of this.processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    void this.temporal?.kill();
  }
}
