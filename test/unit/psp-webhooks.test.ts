// The PSP webhook listener's app over real HTTP (plain: the mTLS side is in the integration test),
// with PostgreSQL and Temporal replaced by recorders: the answers (200 at once, 404 for a route that
// is not configured, 400 for a body that is not JSON) and which workflow each name of the body wakes.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { createLogger } from '../../src/log.js';
import { pixHints } from '../../src/psp-webhooks/hints.js';
import { createPspWebhookApp } from '../../src/psp-webhooks/app.js';
import { eventually } from '../helpers/eventually.js';

const CHARGE = 'txn_0123456789abcdef01234567';
const TRANSFER = 'out_0123456789abcdef01234567';
const E2E = 'E12345678202601011200abcdef12345';

/** What the listener asked for: transaction lookups (by id or endToEndId), signals and workflow starts. */
const asked: { signals: string[]; starts: string[]; lookups: unknown[] } = { signals: [], starts: [], lookups: [] };

function fakeDeps(): Deps {
  const sql = async (_strings: TemplateStringsArray, ...values: unknown[]) => {
    asked.lookups.push(values[0]);
    if (values[0] === E2E) return [{ id: CHARGE }];
    if (values[0] === CHARGE || values[0] === TRANSFER) return [{ account_id: 'acc_1', external_id: `key-${String(values[0])}` }];
    return [];
  };
  const temporal = {
    workflow: {
      getHandle: (workflowId: string) => ({ signal: async (signal: { name: string }) => void asked.signals.push(`${signal.name} ${workflowId}`) }),
      start: async (_type: string, options: { workflowId: string }) => void asked.starts.push(options.workflowId),
    },
  };
  return {
    config: { pixRoutes: [{ name: 'psp' }], bodyLimitBytes: 64 * 1024, temporalTaskQueue: 'pix' },
    log: createLogger('silent'),
    sql,
    temporal,
  } as unknown as Deps;
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(createPspWebhookApp(fakeDeps()).callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

const post = (path: string, body: string, contentType = 'application/json') =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('PSP webhook listener', () => {
  it('answers 200 and wakes the charge (txid), the transfer (gnExtras.idEnvio) and the MED check (endToEndId of an approved charge)', async () => {
    const body = {
      pix: [
        { endToEndId: E2E, txid: CHARGE.replace('_', ''), valor: '10.00', horario: '2026-01-01T12:00:00Z' },
        { endToEndId: 'E00000000202601011200sentsentsent', valor: '5.00', gnExtras: { idEnvio: TRANSFER.replace('_', '') } },
      ],
    };
    const res = await post('/psp-webhooks/psp/pix', JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    await eventually(() => asked.signals.length === 2 && asked.starts.length === 1, 2000);
    expect(asked.signals.sort()).toEqual([`networkAnswered transfer:acc_1:key-${TRANSFER}`, `paymentNotified charge:acc_1:key-${CHARGE}`]);
    expect(asked.starts).toEqual([`med-returns:psp:${E2E}`]);
  });

  it('a route that is not configured is 404; a body that is not JSON is 400; other methods 405', async () => {
    expect((await post('/psp-webhooks/simulator/pix', '{"pix": []}')).status).toBe(404);
    expect((await post('/psp-webhooks/other/pix', '{"pix": []}')).status).toBe(404);
    const malformed = await post('/psp-webhooks/psp/pix', '{"pix": [');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect((await post('/psp-webhooks/psp/pix', 'pix=1', 'application/x-www-form-urlencoded')).status).toBe(400);
    expect((await fetch(`${base}/psp-webhooks/psp/pix`, { method: 'POST' })).status).toBe(400);
    expect((await fetch(`${base}/psp-webhooks/psp/pix`)).status).toBe(405);
  });

  it('a JSON body without pix entries (a PSP test call) is 200 and wakes nothing', async () => {
    const before = asked.signals.length + asked.starts.length;
    expect((await post('/psp-webhooks/psp/pix', '{"evento": "teste_webhook"}')).status).toBe(200);
    expect((await post('/psp-webhooks/psp/pix', '{"pix": "nope"}')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked.signals.length + asked.starts.length).toBe(before);
  });
});

describe('pixHints', () => {
  it('names engine charges by txid and transfers by idEnvio once each; foreign ids are left out', () => {
    const txid = CHARGE.replace('_', '');
    expect(
      pixHints({
        pix: [
          { endToEndId: E2E, txid },
          { endToEndId: E2E, txid },
          { endToEndId: 'E1', txid: 'someoneElsesTxid12345678901' },
          { endToEndId: 'E2', gnExtras: { idEnvio: TRANSFER.replace('_', '') } },
          null,
          'x',
          { txid: 42 },
        ],
      }),
    ).toEqual({ chargeIds: [CHARGE], transferIds: [TRANSFER], endToEndIds: [E2E, 'E1'] });
    expect(pixHints(null)).toEqual({ chargeIds: [], transferIds: [], endToEndIds: [] });
  });
});
