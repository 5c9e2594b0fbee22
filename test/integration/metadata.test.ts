// `metadata` on charges and transfers over HTTP against the real stack: its limits refused with the
// key to blame, stored and returned on the transaction (creation, read, list, MCP tool), carried in the
// webhook payload, and compared by the idempotency rules; a refused body creates nothing.
import { describe, expect, it } from 'vitest';
import { chargeBody, createCharge, newKey, payCharge, postCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { http, type HttpResult } from '../helpers/stack.js';
import { cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const live = liveStack();

const ORDER = { orderId: 'pedido-9001', customer: 'cliente 77', 'chave/com~barra': 'ok' };

function expectRefusal(res: HttpResult, param: string, what: string): void {
  expect(res.status, `${what}: ${res.text}`).toBe(400);
  expect(res.body.error, what).toEqual({ code: 'invalid_request', message: expect.any(String), param });
}

describe('metadata', () => {
  it('is returned on the charge, read back, listed, given by the MCP tool and carried by its webhooks', async () => {
    const { client, key } = await createMerchant(live.stack);
    const receiver = await startReceiver();
    try {
      const charge = await createCharge(client, { metadata: ORDER, webhookUrl: receiver.url });
      expect(charge.metadata).toEqual(ORDER);
      expect((await client.get(`/transactions/${charge.id}`)).body.data.metadata).toEqual(ORDER);
      expect((await client.get('/transactions')).body.data[0].metadata).toEqual(ORDER);
      const plain = await createCharge(client);
      expect(plain.metadata).toEqual({});

      const tool = await http('POST', `${live.stack.rootUrl}/mcp`, {
        token: key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_transaction', arguments: { id: charge.id } } },
      });
      expect(tool.body.result.structuredContent.data.metadata, tool.text).toEqual(ORDER);

      expect((await payCharge(live.stack, charge.id)).status).toBe(200);
      const approved = await eventually(
        () => receiver.received.find((r) => r.headers['x-service-event'] === 'transaction.approved'),
        20_000,
      );
      expect(JSON.parse(approved.rawBody).data.metadata).toEqual(ORDER);
    } finally {
      await receiver.close();
    }
  });

  it('refuses what breaks its limits with the key to blame, and creates nothing', async () => {
    const { client } = await createMerchant(live.stack);
    const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}`.padEnd(40, 'k'), 'v'.repeat(500)]));
    const longKey = 'k'.repeat(41);
    const cases: Array<[unknown, string]> = [
      [tooMany, '/metadata'],
      [['a'], '/metadata'],
      ['pedido', '/metadata'],
      [null, '/metadata'],
      [{ [longKey]: 'v' }, `/metadata/${longKey}`],
      [{ '': 'v' }, '/metadata/'],
      [{ orderId: 'v'.repeat(501) }, '/metadata/orderId'],
      [{ orderId: 42 }, '/metadata/orderId'],
      [{ 'a/b': { nested: true } }, '/metadata/a~1b'],
    ];
    for (const [metadata, param] of cases) {
      expectRefusal(await postCharge(client, chargeBody({ metadata })), param, `charge ${JSON.stringify(metadata).slice(0, 60)}`);
      expectRefusal(await postTransfer(client, cpfKeyBody({ metadata })), param, `transfer ${JSON.stringify(metadata).slice(0, 60)}`);
    }
    expect((await client.get('/transactions')).body.data).toEqual([]);
    // The limits themselves are accepted: 20 keys of 40 characters at most, values of 500.
    const atLimits = await createCharge(client, { metadata: twenty });
    expect(atLimits.metadata).toEqual(twenty);
  });

  it('is compared by the idempotency rules', async () => {
    const { client } = await createMerchant(live.stack);
    const key = newKey();
    const first = await postCharge(client, chargeBody({ metadata: ORDER }), key);
    expect(first.status, first.text).toBe(201);
    const repeat = await postCharge(client, chargeBody({ metadata: { ...ORDER } }), key);
    expect(repeat.status, repeat.text).toBe(200);
    expect(repeat.body.data.id).toBe(first.body.data.id);
    expect((await postCharge(client, chargeBody({ metadata: { ...ORDER, orderId: 'outro' } }), key)).status).toBe(409);
    expect((await postCharge(client, chargeBody(), key)).status).toBe(409);

    // Without metadata, a repeat with an empty object is the same request, and one with metadata is another.
    const bare = newKey();
    expect((await postCharge(client, chargeBody(), bare)).status).toBe(201);
    expect((await postCharge(client, chargeBody({ metadata: {} }), bare)).status).toBe(200);
    expect((await postCharge(client, chargeBody({ metadata: { a: 'b' } }), bare)).status).toBe(409);
  });

  it('is returned on a transfer and compared for its idempotency', async () => {
    const { client } = await createMerchant(live.stack);
    await fund(live.stack, client, 50);
    const key = newKey('t');
    const created = await postTransfer(client, cpfKeyBody({ metadata: { payout: 'semana-48' } }), key);
    expect([201, 202], created.text).toContain(created.status);
    expect(created.body.data.metadata).toEqual({ payout: 'semana-48' });
    const read = await client.get(`/transactions/${created.body.data.id}`);
    expect(read.body.data.metadata).toEqual({ payout: 'semana-48' });
    expect((await postTransfer(client, cpfKeyBody({ metadata: { payout: 'semana-49' } }), key)).status).toBe(409);
    const repeat = await postTransfer(client, cpfKeyBody({ metadata: { payout: 'semana-48' } }), key);
    expect([200, 202], repeat.text).toContain(repeat.status);
  });
});
