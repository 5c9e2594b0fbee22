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
    const res = await http('DELETE', `${live.stack.adminUrl}/accounts`, { token: ADMIN_TOKEN });
    expectMethodNotAllowed(res, ['POST'], 'DELETE /admin/accounts');
    const keys = await http('PUT', `${live.stack.adminUrl}/accounts/acc_x/api-keys`, { token: ADMIN_TOKEN });
    expectMethodNotAllowed(keys, ['POST', 'HEAD', 'GET'], 'PUT /admin/accounts/{id}/api-keys');
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
