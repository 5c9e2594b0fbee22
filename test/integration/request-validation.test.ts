// The route table's validation over HTTP against the real stack: every refusal of one field carries
// `param` (its JSON pointer) beside the spec's code, for a body field, a nested one, a query parameter
// and a path parameter (through the MCP tools); query strings are read per schema (refresh true/false,
// page and limit bounds) and nothing else changes.
import { describe, expect, it } from 'vitest';
import { chargeBody, createCharge, newKey, postCharge } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { http, type HttpResult } from '../helpers/stack.js';
import { postTransfer } from '../helpers/transfers.js';

const live = liveStack();

function expectRefusal(res: HttpResult, code: string, param: string | undefined, what: string): void {
  expect(res.status, `${what}: ${res.text}`).toBe(400);
  const error = { code, message: expect.any(String), ...(param === undefined ? {} : { param }) };
  expect(res.body, what).toEqual({ success: false, error, requestId: expect.stringMatching(/^req_/) });
}

describe('param: the field to blame', () => {
  it('points at a body field, a nested one and a split item, keeping each spec code', async () => {
    const { client } = await createMerchant(live.stack);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ amount: 0 }, 'invalid_request', '/amount'],
      [{ amount: 10.001 }, 'invalid_request', '/amount'],
      [{ payer: { name: 'Maria da Silva', document: '529.982.247-24' } }, 'invalid_request', '/payer/document'],
      [{ payer: { name: 'Al', document: '529.982.247-25' } }, 'invalid_request', '/payer/name'],
      [{ payer: { document: '529.982.247-25' } }, 'invalid_request', '/payer/name'],
      [{ split: [{ recipient: 'a@example.com', percent: 0 }] }, 'SPLIT_INVALID', '/split/0/percent'],
      [{ split: [{ recipient: 'a@example.com', amount: 1, percent: 1 }] }, 'SPLIT_INVALID', '/split/0'],
      [{ split: [{ recipient: '??', amount: 1 }] }, 'SPLIT_RECIPIENT_INVALID', '/split/0/recipient'],
      [{ externalId: 'não vale' }, 'invalid_idempotency_key', '/externalId'],
      // A typo is refused, never silently dropped.
      [{ coverFees: true }, 'invalid_request', '/coverFees'],
      [{ payer: { name: 'Maria da Silva', document: '529.982.247-25', phone: '11999999999' } }, 'invalid_request', '/payer/phone'],
      [{ split: [{ recipient: 'a@example.com', amount: 1, note: 'x' }] }, 'invalid_request', '/split/0/note'],
    ];
    for (const [overrides, code, param] of cases) {
      expectRefusal(await postCharge(client, chargeBody(overrides)), code, param, JSON.stringify(overrides));
    }
    // A body that is not an object, or a bad header, blames no field.
    expectRefusal(await postCharge(client, [1]), 'invalid_request', undefined, 'array body');
    expectRefusal(await postCharge(client, chargeBody(), 'não vale'), 'invalid_idempotency_key', undefined, 'header key');
    expectRefusal(
      await postTransfer(client, { destination: { type: 'boleto', value: 'x' }, amount: 10 }),
      'invalid_request',
      '/destination/type',
      'transfer',
    );
    expectRefusal(
      await postTransfer(client, { destination: { type: 'pix_key', value: 'a@example.com', keyType: 'email' }, amount: 10 }),
      'invalid_request',
      '/destination/keyType',
      'transfer with an unknown field',
    );
    expect((await client.get('/transactions')).body.data).toEqual([]);
  });

  it('points at a query parameter, with its own code where the spec names one', async () => {
    const { client } = await createMerchant(live.stack);
    const cases: Array<[string, string, string]> = [
      ['/transactions?limit=101', 'invalid_request', '/limit'],
      ['/transactions?page=0', 'invalid_request', '/page'],
      ['/transactions?limit=20&limit=30', 'invalid_request', '/limit'],
      ['/transactions?status=paid', 'invalid_status', '/status'],
      ['/transactions?type=deposit', 'invalid_type', '/type'],
      ['/meds?status=lost', 'invalid_med_status', '/status'],
      ['/meds?limit=abc', 'invalid_request', '/limit'],
      ['/transactions?status=%1B%5B31m', 'invalid_request', '/status'],
    ];
    for (const [path, code, param] of cases) expectRefusal(await client.get(path), code, param, path);
    const limit = await client.get('/transactions?limit=0');
    expect(limit.body.error.message).toBe('limit deve ser um inteiro de 1 a 100');
  });

  it('points at a path parameter a tool call leaves out', async () => {
    const { key } = await createMerchant(live.stack);
    const res = await http('POST', `${live.stack.rootUrl}/mcp`, {
      token: key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_transaction', arguments: {} } },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text).error).toEqual({
      code: 'invalid_request',
      message: expect.any(String),
      param: '/id',
    });
  });
});

describe('the query read per schema', () => {
  it('reads refresh as the boolean it is declared: true and false, anything else a 400', async () => {
    const { client } = await createMerchant(live.stack);
    const { id } = await createCharge(client);
    for (const value of ['true', 'false']) {
      const res = await client.get(`/transactions/${id}?refresh=${value}`);
      expect(res.status, value).toBe(200);
      expect(res.body.data.id).toBe(id);
    }
    for (const value of ['yes', '1', 'TRUE', '']) {
      const res = await client.get(`/transactions/${id}?refresh=${value}`);
      expectRefusal(res, 'invalid_request', '/refresh', `refresh=${value}`);
      expect(res.body.error.message).toBe('refresh deve ser true ou false');
    }
  });

  it('takes page and limit at their bounds and fills the documented defaults', async () => {
    const { client } = await createMerchant(live.stack);
    await createCharge(client, {}, newKey());
    const defaults = await client.get('/transactions');
    expect(defaults.body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
    const bounds = await client.get(`/transactions?page=${Number.MAX_SAFE_INTEGER}&limit=100`);
    expect(bounds.status).toBe(200);
    expect(bounds.body.pagination).toEqual({ page: Number.MAX_SAFE_INTEGER, limit: 100, total: 1, pages: 1 });
    const first = await client.get('/transactions?page=1&limit=1');
    expect(first.body.pagination).toEqual({ page: 1, limit: 1, total: 1, pages: 1 });
    for (const query of ['page=9007199254740992', 'limit=101', 'limit=-1', 'page=1.0']) {
      expect((await client.get(`/transactions?${query}`)).status, query).toBe(400);
    }
  });
});
