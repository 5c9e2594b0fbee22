// The TypeScript client of clients/typescript against the real engine: its types generated from the
// document the engine serves compile with `tsc --strict` for the README's calls, a charge made with it
// is paid on the simulator, and the webhook delivered to a local receiver is verified with verifyWebhook.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constructWebhookEvent, createPixClient, PixApiError, verifyWebhook } from '../../clients/typescript/src/index.js';
import { payCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { admin, http, startStack, type Stack } from '../helpers/stack.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLIENT = join(ROOT, 'clients/typescript');

let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  [stack, receiver] = await Promise.all([startStack(), startReceiver()]);
});

afterAll(async () => {
  await Promise.all([stack?.stop(), receiver?.close()]);
});

describe('clients/typescript', () => {
  it('compiles with tsc --strict against the types generated from the served document', async () => {
    const served = await http('GET', `${stack.baseUrl}/openapi.json`);
    expect(served.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'pix-client-'));
    try {
      cpSync(join(CLIENT, 'src'), join(dir, 'src'), { recursive: true, filter: (path) => !path.endsWith('api.d.ts') });
      cpSync(join(CLIENT, 'examples'), join(dir, 'examples'), { recursive: true });
      writeFileSync(join(dir, 'src/api.d.ts'), astToString(await openapiTS(served.text)));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules/@types')],
            strict: true,
            noEmit: true,
          },
          include: ['src', 'examples'],
        }),
      );
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const result = await promisify(execFile)(process.execPath, [tsc, '--strict', '-p', dir]).catch((err: { stdout: string }) => err);
      expect(result.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('creates a charge, and verifies the webhook of its payment', async () => {
    const merchant = await createMerchant(stack);
    const endpoint = await admin(stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url });
    expect(endpoint.status).toBe(201);
    const secret: string = endpoint.body.data.secret;
    const pix = createPixClient({ baseUrl: stack.baseUrl, apiKey: merchant.key });

    const created = await pix.createCharge(
      { amount: 149.9, payer: { name: 'Maria Souza', document: '529.982.247-25' }, description: 'Pedido 1001' },
      { idempotencyKey: `pedido-${merchant.account.id}` },
    );
    expect(created.data).toMatchObject({ status: 'pending', amount: 149.9, counterparty: null });
    expect((await payCharge(stack, created.data.id)).status).toBe(200);
    await eventually(async () => (await pix.getTransaction(created.data.id)).data.status === 'approved');
    const list = await pix.listTransactions({ status: 'approved' });
    expect(list.data.map((t) => t.id)).toEqual([created.data.id]);
    expect((await pix.getBalance()).data.available).toBeGreaterThan(0);

    await eventually(() => receiver.received.some((r) => r.headers['x-service-event'] === 'transaction.approved'));
    const delivery = receiver.received.find((r) => r.headers['x-service-event'] === 'transaction.approved')!;
    const signature = delivery.headers['x-service-signature'] as string;
    expect(verifyWebhook(delivery.rawBody, signature, secret, 300)).toBe(true);
    const event = constructWebhookEvent(delivery.rawBody, signature, secret, 300);
    expect(event.event).toBe('transaction.approved');
    if (event.event !== 'transaction.approved') return;
    expect(event.data).toMatchObject({ id: created.data.id, status: 'approved' });

    // A wrong secret, a changed body and an old timestamp are each refused.
    expect(verifyWebhook(delivery.rawBody, signature, 'whsec_other', 300)).toBe(false);
    expect(verifyWebhook(`${delivery.rawBody} `, signature, secret, 300)).toBe(false);
    expect(verifyWebhook(delivery.rawBody, signature.replace(/t=\d+/, 't=1000'), secret, 300)).toBe(false);
    expect(() => constructWebhookEvent(delivery.rawBody, signature, 'whsec_other', 300)).toThrow('signature mismatch');
  });

  it('throws the error envelope as a PixApiError', async () => {
    const merchant = await createMerchant(stack);
    const pix = createPixClient({ baseUrl: stack.baseUrl, apiKey: merchant.key });
    const refused = await pix
      .createCharge({ amount: 0.001, payer: { name: 'Maria Souza', document: '529.982.247-25' } }, { idempotencyKey: 'k-1' })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(PixApiError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request', param: '/amount' });
  });
});
