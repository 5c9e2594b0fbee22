// A JSON body with a key written twice in one object (`{"amount":1,"amount":5000}`, also as
// `\u0061mount`) means one thing to JSON.parse (the last) and another to whoever read it first: the
// edge refuses it on every body, public and admin, with 400 invalid_request naming the key by JSON
// pointer, before any handler runs. Nothing is created or changed, and the idempotency key stays free.
import { describe, expect, it } from 'vitest';
import { chargeBody, newKey } from '../helpers/charges.js';
import { createAccount, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { ADMIN_TOKEN, admin, http, type HttpResult } from '../helpers/stack.js';

const live = liveStack();
const JSON_TYPE = { 'content-type': 'application/json' };

function expectRepeated(res: HttpResult, pointer: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: { code: 'invalid_request', message: expect.stringContaining(`Campo ${pointer} repetido`), param: pointer },
    requestId: expect.stringMatching(/^req_/),
  });
}

/** The charge body as JSON text with `extra` (`"key":value` pairs) written into its top level or its payer. */
function chargeText(extra: { top?: string; payer?: string }, externalId: string): string {
  const text = JSON.stringify(chargeBody({ amount: 1, externalId }));
  const withPayer = extra.payer ? text.replace('"payer":{', `"payer":{${extra.payer},`) : text;
  return extra.top ? `${withPayer.slice(0, -1)},${extra.top}}` : withPayer;
}

describe('a key repeated in a JSON body', () => {
  it('on POST /v1/transactions: 400 naming the key, no charge, and the idempotency key still free', async () => {
    const { client, key } = await createMerchant(live.stack);
    const externalId = newKey('dup');
    const cases: Array<[string, string]> = [
      [chargeText({ top: '"amount":5000' }, externalId), '/amount'],
      [chargeText({ top: '"\\u0061mount":5000' }, externalId), '/amount'],
      [chargeText({ payer: '"name":"Outra Pessoa"' }, externalId), '/payer/name'],
    ];
    for (const [rawBody, pointer] of cases) {
      const res = await http('POST', `${live.stack.baseUrl}/transactions`, {
        rawBody,
        headers: { ...JSON_TYPE, 'idempotency-key': externalId },
        token: key,
      });
      expectRepeated(res, pointer);
    }
    expect((await client.get(`/transactions/${externalId}`)).status).toBe(404);
    expect((await client.get('/transactions')).body.data).toEqual([]);
    // The key was never taken: the same key with a body that says one thing creates the charge.
    const created = await client.post('/transactions', chargeBody({ amount: 1, externalId }), { 'Idempotency-Key': externalId });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.amount).toBe(1);
  });

  it('on the admin API: PATCH of an account limit and POST of an account change nothing', async () => {
    const account = await createAccount(live.stack);
    const patch = (rawBody: string) =>
      http('PATCH', `${live.stack.adminUrl}/accounts/${account.id}`, { rawBody, headers: JSON_TYPE, token: ADMIN_TOKEN });
    expectRepeated(await patch('{"limits":{"chargeMax":500,"chargeMax":50000}}'), '/limits/chargeMax');
    expectRepeated(await patch('{"limits":{"chargeMax":500,"charge\\u004dax":50000}}'), '/limits/chargeMax');
    expect((await admin(live.stack, 'GET', `/accounts/${account.id}`)).body.data).toMatchObject(account);

    const email = `${newKey('dup')}@example.com`;
    const created = await http('POST', `${live.stack.adminUrl}/accounts`, {
      rawBody: `{"name":"Loja Repetida","document":"11.222.333/0001-81","email":"${email}","kycStatus":"pending","kycStatus":"approved"}`,
      headers: JSON_TYPE,
      token: ADMIN_TOKEN,
    });
    expectRepeated(created, '/kycStatus');
    const rows = await live.sql`select 1 from accounts where email = ${email}`;
    expect(rows).toHaveLength(0);
  });

  it('on /mcp: the same 400, before the call is made', async () => {
    const { key } = await createMerchant(live.stack);
    const res = await http('POST', `${live.stack.rootUrl}/mcp`, {
      rawBody: '{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{}}',
      headers: { ...JSON_TYPE, accept: 'application/json, text/event-stream' },
      token: key,
    });
    expectRepeated(res, '/method');
  });
});
