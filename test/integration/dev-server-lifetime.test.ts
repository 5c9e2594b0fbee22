// The embedded Temporal dev server of `npm start` (role `all` without TEMPORAL_ADDRESS) lives exactly
// as long as its engine: a SIGKILL of the engine leaves no server behind; a start whose port is taken
// by another program stops with a message naming the port and the variables to change; a server left
// on the port by an earlier engine of the same data folder is replaced by one bound to this engine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startDevServer } from '../../src/temporal/dev-server.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../../src/runtime/free-port.js';
import { ADMIN_TOKEN, spawnEngine, waitReady, type EngineProcess } from '../helpers/stack.js';

/** Live (not zombie) processes whose command line mentions `dataDir`. */
function processesOf(dataDir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        return state !== 'Z' && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}

interface Embedded {
  engine: EngineProcess;
  rootUrl: string;
  dataDir: string;
}

const started: Embedded[] = [];

/** Every process of the machine whose command line holds `text` (what `ps` shows any user). */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function startEmbedded(
  options: { devPort?: number; dataDir?: string; uiPort?: number; env?: Record<string, string> } = {},
): Promise<Embedded> {
  const [port, adminPort, uiPort] = [await freePort(), await freePort(), options.uiPort ?? (await freePort())];
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'pix-embedded-'));
  const engine = spawnEngine('all', {
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    ADMIN_TOKEN,
    DATABASE_URL: freshDatabaseUrl(inject('testRunId')),
    TEMPORAL_ADDRESS: '',
    TEMPORAL_DEV_PORT: String(options.devPort ?? (await freePort())),
    TEMPORAL_UI_PORT: String(uiPort),
    TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const embedded = { engine, rootUrl: `http://127.0.0.1:${port}`, dataDir };
  started.push(embedded);
  return embedded;
}

afterEach(async () => {
  for (const { engine, dataDir } of started.splice(0)) {
    await engine.stop();
    for (const pid of processesOf(dataDir)) process.kill(pid, 'SIGKILL'); // what a failing test left behind
  }
});

describe('the embedded Temporal dev server', () => {
  it('ends with its engine when the engine is killed with SIGKILL', async () => {
    const { engine, rootUrl, dataDir } = await startEmbedded();
    await waitReady(rootUrl, engine);
    const servers = processesOf(dataDir);
    expect(servers.length).toBeGreaterThan(0);
    await engine.kill();
    await eventually(() => processesOf(dataDir).length === 0, 5000).catch(() => {
      throw new Error(`still running after the engine's SIGKILL: ${processesOf(dataDir).join(', ')}`);
    });
  });

  it('gives its Web UI the codec endpoint with CODEC_UI_SECRET in a private file: no process argument and no log line holds it', async () => {
    const secret = `ui-${randomBytes(20).toString('hex')}`;
    const uiPort = await freePort();
    const { engine, rootUrl, dataDir } = await startEmbedded({ uiPort, env: { CODEC_UI_SECRET: secret } });
    await waitReady(rootUrl, engine);
    expect(processesOf(dataDir).length).toBeGreaterThan(0);
    expect(processesNaming(secret)).toEqual([]);
    // The flag itself, among this engine's own processes (another engine on the machine may be older).
    expect(processesNaming('--ui-codec-endpoint').filter((pid) => processesOf(dataDir).includes(pid))).toEqual([]);
    const settings = await eventually(async () => {
      const res = await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`).catch(() => null);
      return res?.ok ? ((await res.json()) as { Codec: { Endpoint: string } }) : undefined;
    }, 10_000);
    expect(settings.Codec.Endpoint).toMatch(new RegExp(`/codec/ui/${secret}$`));
    expect(engine.output()).not.toContain(secret);
  });

  it('refuses to start when another program holds its port, naming the port and what to set', async () => {
    const devPort = await freePort();
    const other: Server = createServer();
    await new Promise<void>((done) => other.listen(devPort, '127.0.0.1', done));
    try {
      const { engine } = await startEmbedded({ devPort });
      const code = await new Promise<number | null>((done) => engine.child.once('exit', done));
      expect(code).toBe(1);
      expect(engine.output()).toContain(`port ${devPort} (TEMPORAL_DEV_PORT) is taken by another program`);
      expect(engine.output()).toContain('TEMPORAL_ADDRESS');
    } finally {
      await new Promise((done) => other.close(done));
    }
  });

  it('replaces a server an earlier engine left running on the same data folder and port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pix-embedded-'));
    const devPort = await freePort();
    const leftOver = await startDevServer({
      port: devPort,
      uiPort: null,
      dbFile: resolve(dataDir, 'temporal.sqlite'),
      namespace: 'default',
      searchPath: process.env.PATH ?? '',
    });
    const [leftOverPid] = processesOf(dataDir);
    try {
      const { engine, rootUrl } = await startEmbedded({ devPort, dataDir });
      await waitReady(rootUrl, engine);
      expect(engine.output()).toContain('killing the embedded Temporal dev server an earlier engine left running on this data folder');
      expect(processesOf(dataDir)).not.toContain(leftOverPid);
      expect(processesOf(dataDir).length).toBeGreaterThan(0);
    } finally {
      await leftOver.stop();
    }
  });
});
