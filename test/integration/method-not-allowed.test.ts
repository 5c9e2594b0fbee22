// A wrong method on a known path answers 405 with `Allow` (RFC 9110) in the error envelope, on the
// public API, its health routes and the admin API; an unknown path stays a 404.
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, http } from '../helpers/stack.js';
import { liveStack } from '../helpers/live-stack.js';

const live = liveStack();

/** `allow`: the path's methods, in any order. */
function expectMethodNotAllowed(res: Awaited<ReturnType<typeof http>>, allow: string[], what: string) {
  const header = res.headers.get('allow') ?? '';
  expect(res.status, what).toBe(405);
  expect(header.split(', ').sort(), what).toEqual([...allow].sort());
  expect(res.headers.get('x-service-version'), what).toBe('1.1.0');
  expect(res.body, what).toEqual({
    success: false,
    error: { code: 'method_not_allowed', message: expect.stringContaining(header) },
    requestId: res.headers.get('x-request-id'),
  });
}

describe('405 method_not_allowed', () => {
  it('answers a wrong method on a public path with the path’s methods, before authentication', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['DELETE', '/v1/transactions', ['HEAD', 'GET', 'POST']],
      ['PUT', '/v1/transactions/txn_x', ['HEAD', 'GET']],
      ['POST', '/v1/balance', ['HEAD', 'GET']],
      ['GET', '/v1/transfers', ['POST']],
      ['PATCH', '/v1/openapi.json', ['HEAD', 'GET']],
      ['PROPFIND', '/v1/meds', ['HEAD', 'GET']],
      ['POST', '/healthz', ['HEAD', 'GET']],
    ];
    for (const [method, path, allow] of cases) {
      expectMethodNotAllowed(await http(method, `${live.stack.rootUrl}${path}`), allow, `${method} ${path}`);
    }
  });

  it('answers a wrong method on an admin path the same way', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['DELETE', '/accounts', ['POST']],
      ['PUT', '/accounts/acc_x/api-keys', ['POST', 'HEAD', 'GET']],
      ['POST', '/accounts/acc_x', ['HEAD', 'GET', 'PATCH']],
      ['PATCH', '/api-keys/key_x', ['DELETE']],
      ['DELETE', '/accounts/acc_x/webhook-endpoints', ['POST', 'HEAD', 'GET']],
      ['POST', '/webhook-deliveries', ['HEAD', 'GET']],
      ['GET', '/webhook-deliveries/d_x/retry', ['POST']],
      ['GET', '/simulator/meds', ['POST']],
      ['PUT', '/simulator/charges/txn_x/pay', ['POST']],
      ['DELETE', '/meds/med_x/decision', ['POST']],
      ['PUT', '/ledger/check', ['HEAD', 'GET']],
      ['POST', '/openapi.json', ['HEAD', 'GET']],
      ['PROPFIND', '/accounts', ['POST']],
    ];
    for (const [method, path, allow] of cases) {
      expectMethodNotAllowed(await http(method, `${live.stack.adminUrl}${path}`, { token: ADMIN_TOKEN }), allow, `${method} /admin${path}`);
    }
  });

  it('keeps the admin token first: a wrong method without it is a 401', async () => {
    const res = await http('DELETE', `${live.stack.adminUrl}/accounts`);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.headers.get('allow')).toBeNull();
  });

  it('keeps 404 for an unknown path, whatever the method', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await http(method, `${live.stack.baseUrl}/nowhere`);
      expect(res.status, method).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.headers.get('allow')).toBeNull();
    }
  });
});
