// The PSP webhook listener's app over real HTTP (plain: the mTLS side is in the integration test),
// with PostgreSQL and Temporal replaced by recorders: the answers (200 at once, 404 for a route that
// is not configured, 400 for a body that is not JSON), which workflow each name of the body wakes, and
// what a body costs whatever it names: two queries, one log line, one signal per transaction per interval.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/runtime/deps.js';
import { createLogger } from '../../src/runtime/log.js';
import { SignalCoalescer } from '../../src/psp-webhooks/coalescer.js';
import { MAX_HINTS_PER_BODY, pixHints } from '../../src/psp-webhooks/hints.js';
import { createPspWebhookApp } from '../../src/psp-webhooks/app.js';
import { eventually } from '../helpers/eventually.js';

const CHARGE = 'txn_0123456789abcdef01234567';
const TRANSFER = 'out_0123456789abcdef01234567';
const CHARGE_REPEATED = 'txn_99999999999999999999abcd';
const E2E = 'E12345678202601011200abcdef12345';
const KNOWN: Record<string, string> = { [CHARGE]: 'payment', [CHARGE_REPEATED]: 'payment', [TRANSFER]: 'withdrawal' };

/** What the listener asked for: transaction lookups (by ids or endToEndIds), signals and workflow starts. */
const asked: { signals: string[]; starts: string[]; lookups: unknown[] } = { signals: [], starts: [], lookups: [] };
/** The engine's log lines. */
const logLines: Array<Record<string, unknown>> = [];

function fakeDeps(): Deps {
  const sql = async (strings: TemplateStringsArray, ...values: unknown[]) => {
    asked.lookups.push(values[0]);
    const names = values[0] as string[];
    if (strings.join('?').includes('end_to_end_id = any')) return names.filter((name) => name === E2E).map((name) => ({ end_to_end_id: name }));
    return names.filter((id) => KNOWN[id]).map((id) => ({ id, type: KNOWN[id], account_id: 'acc_1', external_id: `key-${id}` }));
  };
  const temporal = {
    workflow: {
      getHandle: (workflowId: string) => ({ signal: async (signal: { name: string }) => void asked.signals.push(`${signal.name} ${workflowId}`) }),
      start: async (_type: string, options: { workflowId: string }) => void asked.starts.push(options.workflowId),
    },
  };
  return {
    config: { pixRoutes: [{ name: 'psp', tls: { cert: 'not a certificate' }, webhookClientSubject: null }], bodyLimitBytes: 1024 * 1024, temporalTaskQueue: 'pix', pspWebhookHintIntervalMs: 60_000 },
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

  it('a body naming 1000 unknown charges and Pix costs two queries and one log line, past the first 100 names ignored', async () => {
    const lookupsBefore = asked.lookups.length;
    const linesBefore = logLines.length;
    const pix = Array.from({ length: 1000 }, (_, i) => ({ endToEndId: `E${String(i).padStart(31, '0')}`, txid: `txn${String(i).padStart(24, '0')}`, valor: '1.00' }));
    expect((await post('/psp-webhooks/psp/pix', JSON.stringify({ pix }))).status).toBe(200);
    const summary = await eventually(() => logLines.slice(linesBefore).find((line) => line.msg === 'PSP webhook'), 2000);
    expect(summary).toMatchObject({ route: 'psp', charges: 50, endToEndIds: 50, ignored: 1900, unknown: 50, signalled: 0, medChecks: 0 });
    expect(asked.lookups.length - lookupsBefore).toBe(2);
    expect(logLines.slice(linesBefore).filter((line) => line.msg !== 'request')).toHaveLength(1);
  });

  it('hints for a transaction signalled less than the interval ago become no new signal (coalesced), counted in the log line', async () => {
    const linesBefore = logLines.length;
    const body = JSON.stringify({ pix: [{ endToEndId: 'E99', txid: CHARGE_REPEATED.replace('_', '') }] });
    for (let i = 0; i < 20; i++) expect((await post('/psp-webhooks/psp/pix', body)).status).toBe(200);
    const summaries = await eventually(() => {
      const lines = logLines.slice(linesBefore).filter((line) => line.msg === 'PSP webhook');
      return lines.length === 20 ? lines : undefined;
    }, 2000);
    expect(asked.signals.filter((signal) => signal.endsWith(CHARGE_REPEATED))).toHaveLength(1);
    expect(summaries.reduce((sum, line) => sum + Number(line.coalesced), 0)).toBe(19);
  });
});

describe('SignalCoalescer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first hint at once, folds the ones within the interval into one signal at its end, and opens a new window after it', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const coalescer = new SignalCoalescer(1000, () => {});
    const submit = (label: string) => coalescer.submit('txn_1', async () => void sent.push(label)).outcome;
    expect(submit('first')).toBe('sent');
    expect([submit('second'), submit('third')]).toEqual(['coalesced', 'coalesced']);
    expect(coalescer.submit('txn_2', async () => void sent.push('other')).outcome).toBe('sent');
    expect(sent).toEqual(['first', 'other']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual(['first', 'other', 'third']);
    expect(submit('fourth')).toBe('coalesced'); // the trailing signal opened a window
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual(['first', 'other', 'third', 'fourth']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(submit('fifth')).toBe('sent');
  });

  it('with an interval of 0 sends every hint', () => {
    const coalescer = new SignalCoalescer(0, () => {});
    for (let i = 0; i < 3; i++) expect(coalescer.submit('txn_1', async () => {}).outcome).toBe('sent');
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
