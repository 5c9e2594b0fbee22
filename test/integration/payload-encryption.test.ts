// Issue 16: personal data never in clear in Temporal. Histories read straight from the Temporal server
// (a client without the codec, as the Web UI or `temporal workflow show` would) hold no payer name,
// document, e-mail or Pix key of a charge, a transfer, a MED and a webhook delivery; the codec endpoint of
// the admin port (token or the Web UI's secret path) and the temporal CLI through it show them; a worker
// without the key fails loudly and takes nothing over, and one with the key then finishes the operation.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chargeBody, createCharge, newKey, payCharge, postCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { admin, ADMIN_TOKEN, http, spawnEngine, waitWorker, type Stack } from '../helpers/stack.js';
import { createMerchant } from '../helpers/fixtures.js';
import { encodingOf, historyPayloads, isCoreMarkerData, type StoredPayload } from '../helpers/history-payloads.js';
import { liveStack } from '../helpers/live-stack.js';
import { poll } from '../helpers/probe.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';
import { existingTemporalExecutable } from '../helpers/temporal-executables.js';
import { completeTransfer, postTransfer } from '../helpers/transfers.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const UI_SECRET = `ui-${randomBytes(16).toString('hex')}`;
const codecUrl = (stack: Stack) => stack.adminUrl.replace(/\/admin$/, '/codec');
const asJson = (payload: StoredPayload) => ({
  metadata: Object.fromEntries(Object.entries(payload.metadata).map(([key, value]) => [key, value.toString('base64')])),
  data: payload.data.toString('base64'),
});
/** The history as text, every byte field as UTF-8: what a reader of the stored history could see. */
const storedText = (history: unknown) =>
  JSON.stringify(history, (_key, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value));

describe('workflow histories in Temporal', () => {
  const live = liveStack({ env: { CODEC_UI_SECRET: UI_SECRET, SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  let raw: Client;
  let receiver: Receiver;
  const unique = randomBytes(4).toString('hex');
  const payer = { name: `Joana Cifrada ${unique}`, document: '111.444.777-35', email: `joana.${unique}@example.com` };
  const pixKey = `destino.${unique}@example.com`;
  const secrets = [payer.name, payer.document, '11144477735', payer.email, pixKey];
  /** As the engine keeps them: the document in digits. */
  const decodedSecrets = [payer.name, '11144477735', payer.email, pixKey];
  const workflows = new Map<string, unknown>();

  beforeAll(async () => {
    raw = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
    receiver = await startReceiver();
    const stack = live.stack;
    const { account, client } = await createMerchant(stack);
    expect((await admin(stack, 'POST', `/accounts/${account.id}/webhook-endpoints`, { url: receiver.url })).status).toBe(201);
    const charge = await createCharge(client, { amount: 50, payer });
    expect((await payCharge(stack, charge.id)).status).toBe(200);
    await waitForStatus(client, charge.id, 'approved');
    const transfer = await postTransfer(client, { amount: 10, destination: { type: 'pix_key', value: pixKey } });
    expect(transfer.status).toBe(201);
    expect((await completeTransfer(stack, transfer.body.data.id, 'approved')).status).toBe(200);
    await waitForStatus(client, transfer.body.data.id, 'approved');
    expect((await admin(stack, 'POST', '/simulator/meds', { transactionId: charge.id, amount: 5, reason: 'fraud' })).status).toBe(201);
    await eventually(() => receiver.received.length >= 2, 20_000);

    // Every workflow of the account, found as an operator would: by its AccountId search attribute.
    await eventually(
      async () => {
        for await (const execution of raw.workflow.list({ query: `AccountId = "${account.id}"` })) {
          workflows.set(execution.workflowId, await raw.workflow.getHandle(execution.workflowId).fetchHistory());
        }
        const kinds = new Set([...workflows.keys()].map((id) => id.split(':')[0]));
        return ['charge', 'transfer', 'med', 'webhook-delivery'].every((kind) => kinds.has(kind));
      },
      20_000,
      500,
    );
  });

  afterAll(async () => {
    await raw?.connection.close();
    await receiver?.close();
  });

  it('hold no payer name, document, e-mail or Pix key of a charge, a transfer, a MED and a webhook delivery', () => {
    for (const [workflowId, history] of workflows) {
      const text = storedText(history);
      for (const secret of secrets) expect(text, `${workflowId} holds ${secret}`).not.toContain(secret);
      const payloads = historyPayloads(history);
      expect(payloads.filter((p) => encodingOf(p) === 'binary/encrypted').length, workflowId).toBeGreaterThan(0);
      expect(
        payloads.filter((p) => encodingOf(p) !== 'binary/encrypted' && !isCoreMarkerData(p)),
        workflowId,
      ).toEqual([]);
      expect(
        new Set(payloads.filter((p) => encodingOf(p) === 'binary/encrypted').map((p) => p.metadata['encryption-key-id']!.toString())),
      ).toEqual(new Set([testPayloadKeys().current]));
    }
  });

  it('show them through the codec endpoint, with the admin token or on the Web UI path', async () => {
    const payloads = [...workflows.values()].flatMap((history) => historyPayloads(history).map(asJson));
    const decodedText = (body: any) =>
      body.payloads.map((p: { data: string }) => Buffer.from(p.data, 'base64').toString('utf8')).join('\n');
    const withToken = await http('POST', `${codecUrl(live.stack)}/decode`, {
      body: { payloads },
      token: ADMIN_TOKEN,
      headers: { 'X-Namespace': 'default' },
    });
    expect(withToken.status).toBe(200);
    expect(withToken.body.payloads).toHaveLength(payloads.length);
    for (const secret of decodedSecrets) expect(decodedText(withToken.body)).toContain(secret);

    const viaUi = await http('POST', `${codecUrl(live.stack)}/ui/${UI_SECRET}/decode`, { body: { payloads } });
    expect(viaUi.status).toBe(200);
    expect(viaUi.body).toEqual(withToken.body);
  });

  it('show them to the temporal CLI pointed at the codec endpoint (--codec-endpoint, --codec-auth)', async () => {
    const workflowId = [...workflows.keys()].find((id) => id.startsWith('charge:'))!;
    const show = (codec: string[]) =>
      promisify(execFile)(
        existingTemporalExecutable('temporal').path,
        ['workflow', 'show', '--address', inject('temporalAddress'), '-w', workflowId, '-o', 'json', ...codec],
        { maxBuffer: 16 * 1024 * 1024 },
      );
    // Its JSON output shows payload data in base64, as stored or as decoded.
    const dataText = async (codec: string[]) =>
      historyPayloads(JSON.parse((await show(codec)).stdout))
        .map((p) => p.data.toString('utf8'))
        .join('\n');
    expect(await dataText([])).not.toContain(payer.name);
    const decoded = await dataText(['--codec-endpoint', codecUrl(live.stack), '--codec-auth', `Bearer ${ADMIN_TOKEN}`]);
    expect(decoded).toContain(payer.name);
    expect(decoded).toContain(payer.email);
  });

  it('the codec endpoint encodes what it decodes back, and refuses a missing or wrong token or UI secret in the admin envelope', async () => {
    const clear = {
      metadata: { encoding: Buffer.from('json/plain').toString('base64') },
      data: Buffer.from(JSON.stringify(payer)).toString('base64'),
    };
    const encoded = await http('POST', `${codecUrl(live.stack)}/encode`, { body: { payloads: [clear] }, token: ADMIN_TOKEN });
    expect(encoded.status).toBe(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    const decoded = await http('POST', `${codecUrl(live.stack)}/decode`, { body: encoded.body, token: ADMIN_TOKEN });
    expect(decoded.body.payloads).toEqual([clear]);

    for (const [path, token] of [
      ['/decode', undefined],
      ['/decode', 'wrong-token'],
      ['/encode', undefined],
      [`/ui/${UI_SECRET}x/decode`, undefined],
      ['/ui/wrong/decode', ADMIN_TOKEN],
    ] as const) {
      const refused = await http('POST', `${codecUrl(live.stack)}${path}`, { body: encoded.body, token });
      expect(refused.status, path).toBe(401);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'unauthorized' }, requestId: expect.stringMatching(/^req_/) });
    }
  });

  it('the codec endpoint refuses bad bodies, other namespaces and payloads under unknown keys with a 400', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      http('POST', `${codecUrl(live.stack)}/decode`, { body, token: ADMIN_TOKEN, headers });
    expect((await post({})).body).toEqual({ payloads: [] }); // the CLI's way of sending none
    expect((await post({ payloads: 'x' })).body.error).toMatchObject({
      code: 'invalid_request',
      message: 'Campo /payloads deve ser uma lista',
    });
    expect((await post({ payloads: [{ data: 'not base64!' }] })).body.error.message).toBe(
      'Campo /payloads/0/data deve ser um texto em base64',
    );
    expect((await post({ payloads: [] }, { 'X-Namespace': 'other' })).body.error.message).toMatch(/namespace default, não other/);
    const unknownKey = {
      metadata: {
        encoding: Buffer.from('binary/encrypted').toString('base64'),
        'encryption-key-id': Buffer.from('k-gone').toString('base64'),
      },
      data: randomBytes(40).toString('base64'),
    };
    const refused = await post({ payloads: [unknownKey] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('"k-gone"');
  });

  it('answers the Web UI’s CORS preflight for its origin without a token, and nothing to another origin', async () => {
    const preflight = (origin: string) =>
      fetch(`${codecUrl(live.stack)}/decode`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type,x-namespace',
        },
      });
    const allowed = await preflight('http://localhost:8233');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:8233');
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase().split(', ')).toEqual([
      'authorization',
      'content-type',
      'x-namespace',
    ]);
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const answered = await http('POST', `${codecUrl(live.stack)}/decode`, {
      body: { payloads: [] },
      token: ADMIN_TOKEN,
      headers: { Origin: 'http://127.0.0.1:8233' },
    });
    expect(answered.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:8233');
  });
});

describe('a worker without the payload key', () => {
  const live = liveStack({ layout: 'split', env: { ACCEPT_WAIT_MS: '1500' } });

  it('fails loudly naming the key id, takes nothing over, and a worker with the key then finishes the operation', async () => {
    const stack = live.stack;
    await stack.processes[1]!.stop();
    const otherKeys = JSON.stringify({ current: 'other-k', keys: { 'other-k': randomBytes(32).toString('base64') } });
    const keyless = spawnEngine('worker', { ...stack.env, PAYLOAD_KEYS_FILE: '', PAYLOAD_KEYS: otherKeys });
    stack.processes.push(keyless);
    await waitWorker(keyless);

    const { client } = await createMerchant(stack);
    const key = newKey('keyless');
    expect((await postCharge(client, chargeBody(), key)).status).toBe(202);
    await eventually(
      () => keyless.output().includes(`payload encrypted with key \\"${testPayloadKeys().current}\\", which this process does not hold`),
      20_000,
    );
    expect((await postCharge(client, chargeBody(), key)).status).toBe(202);

    await keyless.stop();
    const worker = spawnEngine('worker', stack.env);
    stack.processes.push(worker);
    await waitWorker(worker);
    const accepted = await poll(
      () => postCharge(client, chargeBody(), key),
      (res) => res.body.data,
      { notYet: [202], timeoutMs: 30_000, everyMs: 500 },
    );
    expect(accepted.pix).not.toBeNull();
  });
});
