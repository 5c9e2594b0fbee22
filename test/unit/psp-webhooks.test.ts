// The PSP webhook listener's app over real HTTP (plain: the mTLS side is in the integration test),
// with PostgreSQL replaced by a recorder: the answers (200 once the names are stored, 404 for a route
// that is not configured, 400 for a body that is not JSON or repeats a key, an error when they cannot
// be stored), the names each body stores, and what a body costs whatever it names: one statement, one log line. What
// the stored hints wake is the hint processor's (test/integration/psp-hints.test.ts).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/runtime/deps.js';
import { createLogger } from '../../src/runtime/log.js';
import { MAX_HINTS_PER_BODY, pixHints } from '../../src/psp-webhooks/hints.js';
import { createPspWebhookApp } from '../../src/psp-webhooks/app.js';

const CHARGE = 'txn_0123456789abcdef01234567';
const TRANSFER = 'out_0123456789abcdef01234567';
const E2E = 'E12345678202601011200abcdef12345';

/** The statements the listener sent (its text and values), and how often it woke the hint processor. */
const asked: { statements: Array<{ text: string; values: unknown[] }>; wakes: number } = { statements: [], wakes: 0 };
/** The engine's log lines. */
const logLines: Array<Record<string, unknown>> = [];
/** Set to make PostgreSQL refuse the next statements. */
let databaseDown = false;

function fakeDeps(): Deps {
  const sql = async (strings: TemplateStringsArray, ...values: unknown[]) => {
    if (databaseDown) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    asked.statements.push({ text: strings.join('?'), values });
    return [];
  };
  return {
    config: { pixRoutes: [{ name: 'psp', tls: { cert: 'not a certificate' }, webhookClientSubject: null }], bodyLimitBytes: 1024 * 1024 },
    log: createLogger(
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          logLines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    ),
    sql,
  } as unknown as Deps;
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(createPspWebhookApp(fakeDeps(), () => void (asked.wakes += 1)).callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
});

const post = (path: string, body: string, contentType = 'application/json') =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

/** What the statements since `before` stored: [route, kind, name] per name. */
function stored(before: number): Array<[unknown, string, string]> {
  return asked.statements
    .slice(before)
    .flatMap(({ values: [route, kinds, names] }) =>
      (names as string[]).map((name, i): [unknown, string, string] => [route, (kinds as string[])[i]!, name]),
    );
}

describe('PSP webhook listener', () => {
  it('stores the charge (txid), the transfer (gnExtras.idEnvio) and the received Pix (endToEndId) in one statement, answers 200, then wakes the hint processor', async () => {
    const [statementsBefore, wakesBefore] = [asked.statements.length, asked.wakes];
    const body = {
      pix: [
        { endToEndId: E2E, txid: CHARGE.replace('_', ''), valor: '10.00', horario: '2026-01-01T12:00:00Z' },
        { endToEndId: 'E00000000202601011200sentsentsent', valor: '5.00', gnExtras: { idEnvio: TRANSFER.replace('_', '') } },
      ],
    };
    const res = await post('/psp-webhooks/psp/pix', JSON.stringify(body));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    expect(asked.statements.length - statementsBefore).toBe(1);
    expect(asked.statements.at(-1)!.text).toMatch(/^insert into psp_hints/);
    expect(stored(statementsBefore)).toEqual([
      ['psp', 'charge', CHARGE],
      ['psp', 'transfer', TRANSFER],
      ['psp', 'pix', E2E],
    ]);
    expect(asked.wakes - wakesBefore).toBe(1);
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

  it('a body with a key repeated in one object is refused as one that is not JSON: 400, nothing stored, nothing woken', async () => {
    const [statementsBefore, wakesBefore] = [asked.statements.length, asked.wakes];
    const other = 'txn0123456789abcdef0000000';
    const res = await post(
      '/psp-webhooks/psp/pix',
      `{"pix":[{"endToEndId":"${E2E}","txid":"${other}","txid":"${CHARGE.replace('_', '')}"}]}`,
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; param: string } }).error).toMatchObject({
      code: 'invalid_request',
      param: '/pix/0/txid',
    });
    expect([asked.statements.length - statementsBefore, asked.wakes - wakesBefore]).toEqual([0, 0]);
  });

  it('a JSON body without pix entries (a PSP test call) is 200, stores nothing and wakes nothing', async () => {
    const [statementsBefore, wakesBefore] = [asked.statements.length, asked.wakes];
    expect((await post('/psp-webhooks/psp/pix', '{"evento": "teste_webhook"}')).status).toBe(200);
    expect((await post('/psp-webhooks/psp/pix', '{"pix": "nope"}')).status).toBe(200);
    expect([asked.statements.length - statementsBefore, asked.wakes - wakesBefore]).toEqual([0, 0]);
  });

  it('a body naming 1000 charges and Pix costs one statement of the first 100 names and one log line, the rest ignored', async () => {
    const statementsBefore = asked.statements.length;
    const linesBefore = logLines.length;
    const pix = Array.from({ length: 1000 }, (_, i) => ({
      endToEndId: `E${String(i).padStart(31, '0')}`,
      txid: `txn${String(i).padStart(24, '0')}`,
      valor: '1.00',
    }));
    expect((await post('/psp-webhooks/psp/pix', JSON.stringify({ pix }))).status).toBe(200);
    expect(asked.statements.length - statementsBefore).toBe(1);
    expect(stored(statementsBefore)).toHaveLength(MAX_HINTS_PER_BODY);
    const lines = logLines.slice(linesBefore).filter((line) => line.msg !== 'request');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'PSP webhook', route: 'psp', charges: 50, transfers: 0, endToEndIds: 50, ignored: 1900 }),
    ]);
  });

  it('names PostgreSQL cannot store are not answered 200 (the PSP repeats the webhook) and wake nothing', async () => {
    const wakesBefore = asked.wakes;
    databaseDown = true;
    try {
      const res = await post('/psp-webhooks/psp/pix', JSON.stringify({ pix: [{ endToEndId: E2E, txid: CHARGE.replace('_', '') }] }));
      expect(res.status).toBe(500);
    } finally {
      databaseDown = false;
    }
    expect(asked.wakes).toBe(wakesBefore);
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
    ).toEqual({ chargeIds: [CHARGE], transferIds: [TRANSFER], endToEndIds: [E2E, 'E1'], ignored: 0 });
    expect(pixHints(null)).toEqual({ chargeIds: [], transferIds: [], endToEndIds: [], ignored: 0 });
    const many = pixHints({ pix: Array.from({ length: MAX_HINTS_PER_BODY + 5 }, (_, i) => ({ endToEndId: `E${i}` })) });
    expect([many.endToEndIds.length, many.ignored]).toEqual([MAX_HINTS_PER_BODY, 5]);
  });
});
