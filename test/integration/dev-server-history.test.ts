// The embedded Temporal dev server's history file (`npm start`'s DATA_DIR/temporal.sqlite) is in SQLite's
// write-ahead log: a reader of the history (a worker fetching a run no longer in its cache) never waits for a
// commit, and a commit syncs one file instead of a rollback journal and the database. What was committed is
// still there after the server is killed.
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/temporal/dev-server.js';
import { freePort } from '../../src/runtime/free-port.js';

const servers: DevServer[] = [];
const folders: string[] = [];

async function start(dbFile: string): Promise<DevServer> {
  const server = await startDevServer({
    port: await freePort(),
    uiPort: null,
    dbFile,
    namespace: 'default',
    searchPath: process.env.PATH ?? '',
  });
  servers.push(server);
  return server;
}

/** Bytes 18 and 19 of an SQLite file's header, its write and read versions: 2 in WAL mode, 1 with a rollback journal. */
function fileFormat(dbFile: string): [number, number] {
  const header = Buffer.alloc(20);
  const fd = openSync(dbFile, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return [header[18]!, header[19]!];
}

async function workflowStatus(server: DevServer, workflowId: string): Promise<string | undefined> {
  const connection = await Connection.connect({ address: server.address });
  try {
    return (await new Client({ connection }).workflow.getHandle(workflowId).describe()).status.name;
  } finally {
    await connection.close();
  }
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the embedded Temporal dev server's history", () => {
  it('is kept in write-ahead-log mode, and what was committed survives a SIGKILL of the server', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pix-history-'));
    folders.push(folder);
    const dbFile = join(folder, 'temporal.sqlite');
    const first = await start(dbFile);
    const connection = await Connection.connect({ address: first.address });
    const workflowId = 'history-survives-a-kill';
    try {
      // No worker polls this queue: the run just waits, as a charge waits for its payment.
      await new Client({ connection }).workflow.start('waitingWorkflow', { taskQueue: 'no-worker-polls-this', workflowId });
    } finally {
      await connection.close();
    }
    expect(fileFormat(dbFile)).toEqual([2, 2]);
    expect(existsSync(`${dbFile}-wal`)).toBe(true);

    await first.kill();
    const second = await start(dbFile);
    expect(await workflowStatus(second, workflowId)).toBe('RUNNING');
  });
});
