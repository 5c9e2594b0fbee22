import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { admin, http } from '../helpers/stack.js';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;

describe('foundation: the stack over HTTP', () => {
  const live = liveStack();

  function expectEdgeHeaders(res: { headers: Headers; body: any }) {
    expect(res.headers.get('x-service-version')).toBe('1.1.0');
    expect(res.headers.get('x-request-id')).toMatch(REQUEST_ID);
    expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
  }

  it('answers /healthz and /readyz with the success envelope', async () => {
    const health = await http('GET', `${live.stack.rootUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ success: true, data: { status: 'ok' } });
    expectEdgeHeaders(health);

    const ready = await http('GET', `${live.stack.rootUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ success: true, data: { checks: { postgres: 'ok', temporal: 'ok' } } });
    expectEdgeHeaders(ready);
  });

  it('answers an unknown route with 404 not_found in the error envelope', async () => {
    for (const path of ['/v1/no-such-thing', '/nothing', '/v1/transactions/x/y/z']) {
      const res = await http('GET', `${live.stack.rootUrl}${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'not_found', message: expect.any(String) },
        requestId: expect.stringMatching(REQUEST_ID),
      });
      expectEdgeHeaders(res);
    }
  });

  it('refuses malformed JSON, a wrong content type, an oversized body and NUL characters with 400 invalid_request', async () => {
    const { key } = await createMerchant(live.stack);
    const post = (rawBody: string, contentType = 'application/json') =>
      http('POST', `${live.stack.baseUrl}/transactions`, {
        rawBody,
        token: key,
        headers: { 'content-type': contentType, 'idempotency-key': 'edge-1' },
      });

    const malformed = await post('{"amount": 10,');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_request');
    expect(malformed.body.error.message).toMatch(/JSON/);
    expect(malformed.headers.get('ratelimit-limit')).toBe('100');
    expectEdgeHeaders(malformed);
    expect(malformed.text).not.toMatch(/at .*\.ts:\d+|SyntaxError|node_modules/);

    const wrongType = await post('amount=10', 'application/x-www-form-urlencoded');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.code).toBe('invalid_request');
    expect(wrongType.body.error.message).toMatch(/Content-Type/);

    const huge = await post(JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(huge.status).toBe(400);
    expect(huge.body.error.code).toBe('invalid_request');
    expect(huge.body.error.message).toMatch(/limite/);

    const nul = await post(JSON.stringify({ amount: 10, payer: { name: 'Fulano de Tal', document: CPF.valid }, description: 'a\u0000b' }));
    expect(nul.status).toBe(400);
    expect(nul.body.error.code).toBe('invalid_request');
    const after = await http('GET', `${live.stack.baseUrl}/transactions/edge-1`, { token: key });
    expect(after.status).toBe(404);
  });

  it('authenticates before it reads the body: no key and a malformed body is 401', async () => {
    const res = await http('POST', `${live.stack.baseUrl}/transactions`, {
      rawBody: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    const unknownRoute = await http('POST', `${live.stack.baseUrl}/nope`, {
      rawBody: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(unknownRoute.status).toBe(404);
  });

  it('answers a NUL byte in a path with 404 and in a query with 400, never 500', async () => {
    const { key } = await createMerchant(live.stack);
    for (const path of ['/transactions/%00', '/transactions/a%00b', '/meds/%00']) {
      const res = await http('GET', `${live.stack.baseUrl}${path}`, { token: key });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    const query = await http('GET', `${live.stack.baseUrl}/transactions?status=%00`, { token: key });
    expect(query.status).toBe(400);
    const adminRes = await admin(live.stack, 'GET', '/accounts/%00');
    expect(adminRes.status).toBe(404);
  });

  it('logs one structured JSON line per request', async () => {
    const res = await http('GET', `${live.stack.rootUrl}/healthz`);
    const requestId = res.body.requestId as string;
    const line = await eventually(() =>
      live.stack.processes[0]!.output()
        .split('\n')
        .find((l) => l.includes(requestId)),
    );
    expect(JSON.parse(line)).toMatchObject({
      msg: 'request',
      method: 'GET',
      route: 'GET /healthz',
      status: 200,
      requestId,
      durationMs: expect.any(Number),
    });
  });
});
