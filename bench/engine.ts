// The engine as its own process for a bench or a script: `dist/src/main.js all` (built and launched as `npm start` builds and
// launches it, scripts/launch.sh) with its embedded Temporal
// dev server (or the one `env.TEMPORAL_ADDRESS` names), on free ports and a fresh PostgreSQL database
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432) that is dropped when the engine stops.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { connect } from '../src/db/database.js';
import { freePort } from '../src/runtime/free-port.js';
import { buildEngine } from '../scripts/build.mjs';
import { engineLaunch } from '../scripts/launch.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface BenchEngine {
  /** The engine process, to read its CPU time. */
  pid: number;
  port: number;
  adminPort: number;
  adminHeaders: { authorization: string };
  databaseUrl: string;
  /** The Temporal frontend the engine uses, to read workflow histories or run workflows beside it. */
  temporalAddress: string;
  /** SIGTERM, wait for the exit, drop the database. */
  stop(): Promise<void>;
}

let entry: Promise<string> | undefined;

/** The engine's `dist/src/main.js`, built once per process as `npm start` builds it. */
export function builtEngineEntry(): Promise<string> {
  return (entry ??= buildEngine().then((dir) => join(dir, 'src', 'main.js')));
}

/** Starts the engine with `env` added to the defaults and resolves once /readyz answers 200 (within 90 s). */
export async function startEngine(env: Record<string, string> = {}): Promise<BenchEngine> {
  const [port, adminPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const database = `pix_bench_${randomBytes(4).toString('hex')}`;
  const databaseUrl = `${PG}/${database}`;
  const token = randomBytes(16).toString('hex');
  const temporalAddress = env.TEMPORAL_ADDRESS || `127.0.0.1:${temporalPort}`;
  // BENCH_ENGINE_NODE_ARGS adds Node options to the engine alone, after the launcher's (a later V8 flag wins), e.g.
  // "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_ENGINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const [command, args] = engineLaunch(await builtEngineEntry(), 'all', nodeArgs);
  const engine = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      ADMIN_TOKEN: token,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: '',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pix-bench-')),
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  process.once('exit', () => engine.kill('SIGKILL'));
  const stop = async () => {
    if (engine.exitCode === null) {
      engine.kill('SIGTERM');
      await new Promise((r) => engine.once('exit', r));
    }
    const admin = connect(`${PG}/postgres`, { max: 1 });
    await admin.unsafe(`drop database if exists "${database}" with (force)`);
    await admin.end();
  };
  try {
    const deadline = Date.now() + 90_000;
    while ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => ({ status: 0 }))).status !== 200) {
      if (Date.now() > deadline || engine.exitCode !== null) throw new Error('engine did not become ready');
      await sleep(200);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: engine.pid!, port, adminPort, adminHeaders: { authorization: `Bearer ${token}` }, databaseUrl, temporalAddress, stop };
}
