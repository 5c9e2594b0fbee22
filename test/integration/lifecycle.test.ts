// The process lifecycle an operator sees: `npm start` with its embedded Temporal dev server and Web UI,
// readiness that reflects PostgreSQL, and a clean stop on a signal.
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { ADMIN_DATABASE_URL, freshDatabaseUrl } from '../helpers/database.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { freePort } from '../../src/runtime/free-port.js';
import { http, spawnEngine, startStack, waitReady } from '../helpers/stack.js';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('process lifecycle', () => {
  it('npm start without TEMPORAL_ADDRESS runs an embedded dev server with its Web UI and search attributes, persists it, and stops cleanly', async () => {
    const [port, adminPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const env = {
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      DATABASE_URL: freshDatabaseUrl(inject('testRunId')),
      TEMPORAL_ADDRESS: '',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pix-data-')),
      TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
    };
    for (const round of [1, 2]) {
      const engine = spawnEngine('all', env);
      try {
        await waitReady(`http://127.0.0.1:${port}`, engine);
        const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
        expect(ui.status).toBe(200);
        const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
        try {
          const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
          expect(customAttributes).toMatchObject({ AccountId: expect.anything(), TransactionId: expect.anything() });
          // A run started in the first life must still be there in the second: history lives in DATA_DIR.
          const client = new Client({ connection });
          if (round === 1)
            await client.workflow.start('persistenceProbe', { taskQueue: 'nobody-polls-this', workflowId: 'persistence-probe' });
          else expect((await client.workflow.getHandle('persistence-probe').describe()).status.name).toBe('RUNNING');
        } finally {
          await connection.close();
        }
        engine.child.kill('SIGINT');
        const code = await engine.stop();
        expect(code, `round ${round}:\n${engine.output().slice(-2000)}`).toBe(0);
        expect(engine.output()).toContain('"msg":"stopped"');
        expect(await portOpen(temporalPort)).toBe(false);
        expect(await portOpen(port)).toBe(false);
      } finally {
        await engine.kill();
      }
    }
  });

  it('readyz answers 503 when PostgreSQL cannot answer, and 200 again when it can', async () => {
    const stack = await startStack();
    const name = new URL(stack.databaseUrl).pathname.slice(1);
    const pg = connect(ADMIN_DATABASE_URL, { max: 1 });
    try {
      // Renaming the database under the engine makes every new connection fail, as an outage would.
      await pg.unsafe(`alter database "${name}" rename to "${name}_away"`).catch(async () => {
        await pg`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;
        await pg.unsafe(`alter database "${name}" rename to "${name}_away"`);
      });
      await pg`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name + '_away'}`;
      const down = await http('GET', `${stack.rootUrl}/readyz`);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        success: false,
        error: { code: 'internal_error' },
        checks: { postgres: 'unavailable', temporal: 'ok' },
      });
      await pg.unsafe(`alter database "${name}_away" rename to "${name}"`);
      const up = await http('GET', `${stack.rootUrl}/readyz`);
      expect(up.status).toBe(200);
    } finally {
      await pg.end();
      await stack.stop();
    }
  });

  it('finishes an in-flight request on SIGTERM (a charge whose body is still arriving), then exits 0', async () => {
    const stack = await startStack();
    const engine = stack.processes[0]!;
    const { key } = await createMerchant(stack);
    const body = Buffer.from(JSON.stringify({ amount: 10, payer: { name: 'Fulano de Tal', document: CPF.valid } }));
    const url = new URL(`${stack.baseUrl}/transactions`);
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': body.length,
            'idempotency-key': 'in-flight-1',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, 10));
      // The server has the request; the signal arrives while its body is still coming.
      setTimeout(() => {
        engine.child.kill('SIGTERM');
        setTimeout(() => req.end(body.subarray(10)), 300);
      }, 300);
    });
    const exited = new Promise<number | null>((resolve) => engine.child.once('exit', (code) => resolve(code)));
    const [res, code] = await Promise.all([answer, exited]);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ externalId: 'in-flight-1', status: 'pending' });
    expect(code).toBe(0);
  });
});
