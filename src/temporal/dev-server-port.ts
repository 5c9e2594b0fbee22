// The embedded dev server's port before it starts, and the pid file that names who holds it.
// A port already taken is either the embedded server of this same data folder, left running by an
// engine that could not stop it (where setpriv is missing, a SIGKILL of the engine leaves it behind),
// or another program. The first is killed, and a server bound to this engine starts on the same
// history (adopting it would leave a server that again outlives its engine, started by another
// version with its own flags); the second stops the start with a message that says what to change.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../runtime/log.js';

interface PidFile {
  pid: number;
  port: number;
}

const pidFileOf = (dbFile: string) => `${dbFile}.pid`;

export function writePidFile(dbFile: string, pid: number, port: number): void {
  writeFileSync(pidFileOf(dbFile), JSON.stringify({ pid, port } satisfies PidFile));
}

export function removePidFile(dbFile: string): void {
  rmSync(pidFileOf(dbFile), { force: true });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The pid of a running dev server of `dbFile` on `port`, from its pid file, checked against its command line. */
function leftBehind(dbFile: string, port: number): number | null {
  try {
    const recorded = JSON.parse(readFileSync(pidFileOf(dbFile), 'utf8')) as PidFile;
    const argv = readFileSync(`/proc/${recorded.pid}/cmdline`, 'utf8').split('\0');
    const flag = (name: string) => argv[argv.indexOf(name) + 1];
    const ours =
      recorded.port === port && argv.includes('start-dev') && flag('--db-filename') === dbFile && flag('--port') === String(port);
    return ours ? recorded.pid : null;
  } catch {
    return null; // no pid file, no such process, or no /proc: not provably ours
  }
}

async function waitForPort(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portFree(port)) return true;
    await sleep(100);
  }
  return false;
}

/** Resolves once `port` is free for the dev server of `dbFile` (null: in memory), or says why it cannot be. */
export async function claimDevServerPort(port: number, dbFile: string | null, log?: Logger): Promise<void> {
  if (await portFree(port)) return;
  const orphan = dbFile === null ? null : leftBehind(dbFile, port);
  if (orphan === null) {
    throw new Error(
      `The embedded Temporal dev server cannot start: port ${port} (TEMPORAL_DEV_PORT) is taken by another program. ` +
        'Free it, choose another port with TEMPORAL_DEV_PORT, or use a running Temporal server with TEMPORAL_ADDRESS.',
    );
  }
  log?.warn(
    { pid: orphan, port, dbFile },
    'killing the embedded Temporal dev server an earlier engine left running on this data folder; a new one starts on the same history',
  );
  process.kill(orphan, 'SIGKILL');
  if (!(await waitForPort(port, 10_000))) throw new Error(`port ${port} (TEMPORAL_DEV_PORT) is still taken after killing pid ${orphan}`);
}
