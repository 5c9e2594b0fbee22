// The guarded edge over HTTP: every row of the spec's authentication failure table, the order of the
// checks, the route-by-permission matrix read from the route table, IP allow-lists, KYC, blocked
// accounts and revocation (also across two API processes on one database).
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission } from '../../src/accounts/permissions.js';
import type { RouteSpec } from '../../src/routing/public-route.js';
import { ROUTES } from '../../src/api/routes/index.js';
import { startApiReplica } from '../helpers/api-replica.js';
import { createAccount, createKey, patchAccount } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { admin, http, type HttpResult } from '../helpers/stack.js';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
const GUARDED = ROUTES.filter((r): r is RouteSpec & { permission: Permission } => r.permission !== null);
/** The route the single-route checks use: a guarded GET without path parameters (GET /balance first). */
const PROBE = GUARDED.find((r) => r.path === '/balance') ?? GUARDED.find((r) => r.method === 'GET' && !r.path.includes(':'));
const FINANCIAL = GUARDED.find((r) => r.financial);

function expectError(res: HttpResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String) }, requestId: expect.stringMatching(REQUEST_ID) });
  expect(res.headers.get('x-service-version')).toBe('1.1.0');
}

/** Not refused by the guard: whatever the handler makes of the request, it is not a 401 or 403. */
function expectPastGuard(res: HttpResult, what: string) {
  expect([401, 403], `${what}: ${res.status} ${res.text}`).not.toContain(res.status);
  expect(res.status, what).toBeLessThan(500);
}

describe('authentication and authorization', () => {
  const live = liveStack({ env: { TRUST_PROXY: 'true' } });

  /** A request that passes the guard's own checks: path parameters filled, an (empty) JSON body for POSTs. */
  function call(route: RouteSpec, options: { key?: string; authorization?: string; ip?: string; baseUrl?: string } = {}) {
    const path = route.path.replace(/:\w+/g, 'txn_desconhecida');
    const headers: Record<string, string> = {};
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    if (options.ip) headers['x-forwarded-for'] = options.ip;
    return http(route.method, `${options.baseUrl ?? live.stack.baseUrl}${path === '/' ? '' : path}`, {
      token: options.key,
      headers,
      body: route.method === 'POST' ? {} : undefined,
    });
  }

  async function merchant(
    permissions: readonly Permission[] = PERMISSIONS,
    allowedIps?: string[],
    kycStatus: 'approved' | 'pending' = 'approved',
  ) {
    const account = await createAccount(live.stack, { kycStatus });
    return { account, ...(await createKey(live.stack, account.id, permissions, allowedIps)) };
  }

  it('has guarded routes to check, including a financial one', () => {
    expect(GUARDED.length).toBeGreaterThan(0);
    expect(PROBE).toBeDefined();
    expect(FINANCIAL).toBeDefined();
  });

  describe('401 invalid_api_key', () => {
    it('refuses a missing, non-Bearer or malformed Authorization header', async () => {
      const { key } = await merchant();
      const headers = [
        '',
        `Basic ${key}`,
        `Token ${key}`,
        key,
        'Bearer',
        'Bearer ',
        'Bearer abc',
        'Bearer pix_live_short',
        `Bearer ${key} extra`,
        `Bearer ${key.slice(0, -1)}`,
        `Bearer ${key}=`,
      ];
      for (const authorization of headers) {
        const res = await call(PROBE!, { authorization });
        expectError(res, 401, 'invalid_api_key');
        expect(res.headers.get('ratelimit-limit'), authorization).toBeNull();
      }
      expectError(await call(PROBE!), 401, 'invalid_api_key');
    });

    it('refuses an unknown and a revoked key alike, without telling which', async () => {
      const { key, id } = await merchant();
      expectPastGuard(await call(PROBE!, { key }), 'before revocation');
      await admin(live.stack, 'DELETE', `/api-keys/${id}`);
      const revoked = await call(PROBE!, { key });
      const unknown = await call(PROBE!, { key: `pix_live_${'A'.repeat(43)}` });
      expectError(revoked, 401, 'invalid_api_key');
      expectError(unknown, 401, 'invalid_api_key');
      expect(revoked.body.error.message).toBe(unknown.body.error.message);
    });

    it('accepts the Bearer scheme in any letter case', async () => {
      const { key } = await merchant();
      expectPastGuard(await call(PROBE!, { authorization: `bearer ${key}` }), 'lower-case scheme');
    });
  });

  describe('route-by-permission matrix (from the route table)', () => {
    it('refuses every route to a key lacking its permission, naming it, and lets the permission through', async () => {
      const onlyOne = Object.fromEntries(await Promise.all(PERMISSIONS.map(async (p) => [p, (await merchant([p])).key] as const)));
      for (const route of GUARDED) {
        const name = `${route.method} ${route.path}`;
        const allBut = await merchant(PERMISSIONS.filter((p) => p !== route.permission));
        const denied = await call(route, { key: allBut.key });
        expectError(denied, 403, 'permission_denied');
        expect(denied.body.error.message, name).toContain(route.permission);
        for (const permission of PERMISSIONS) {
          const res = await call(route, { key: onlyOne[permission] });
          if (permission === route.permission) expectPastGuard(res, `${name} with ${permission}`);
          else {
            expectError(res, 403, 'permission_denied');
            expect(res.body.error.message, `${name} with ${permission}`).toContain(route.permission);
          }
        }
      }
    });

    it('asks for completed identity verification exactly on the financial routes', async () => {
      const pending = await merchant(PERMISSIONS, undefined, 'pending');
      for (const route of GUARDED) {
        const res = await call(route, { key: pending.key });
        if (route.financial) expectError(res, 403, 'kyc_required');
        else expectPastGuard(res, `${route.method} ${route.path} with KYC pending`);
      }
      await patchAccount(live.stack, pending.account.id, { kycStatus: 'approved' });
      for (const route of GUARDED) expectPastGuard(await call(route, { key: pending.key }), `${route.method} ${route.path} after KYC`);
    });
  });

  describe('403 ip_not_allowed', () => {
    it('lets listed addresses and ranges through and refuses the others (IPv4, CIDR, IPv6, IPv4-mapped)', async () => {
      const { key } = await merchant(PERMISSIONS, ['203.0.113.7', '198.51.100.0/24', '2001:db8:abcd::/48', '2001:db8::42']);
      for (const ip of [
        '203.0.113.7',
        '198.51.100.0',
        '198.51.100.255',
        '2001:db8:abcd:1::9',
        '2001:db8::42',
        '::ffff:203.0.113.7',
        '203.0.113.7, 10.0.0.1',
      ]) {
        expectPastGuard(await call(PROBE!, { key, ip }), ip);
      }
      for (const ip of ['203.0.113.8', '198.51.101.1', '2001:db8:abce::1', '2001:db8::43', '10.0.0.1, 203.0.113.7', 'not-an-ip']) {
        const res = await call(PROBE!, { key, ip });
        expectError(res, 403, 'ip_not_allowed');
        expect(res.headers.get('ratelimit-limit'), ip).toBeNull();
      }
    });

    it('lets an unrestricted key through from anywhere', async () => {
      const { key } = await merchant(PERMISSIONS);
      for (const ip of ['203.0.113.7', '2001:db8::1']) expectPastGuard(await call(PROBE!, { key, ip }), ip);
    });
  });

  describe('403 account_unavailable', () => {
    it('refuses a blocked account from the next request on, and serves it again once unblocked', async () => {
      const { key, account } = await merchant();
      expectPastGuard(await call(PROBE!, { key }), 'active');
      await patchAccount(live.stack, account.id, { status: 'blocked' });
      for (const route of GUARDED) expectError(await call(route, { key }), 403, 'account_unavailable');
      await patchAccount(live.stack, account.id, { status: 'active' });
      expectPastGuard(await call(PROBE!, { key }), 'unblocked');
    });
  });

  describe('order of the checks', () => {
    it('is 401, then ip_not_allowed, then account_unavailable, then permission_denied, then kyc_required', async () => {
      const { key, id, account } = await merchant(
        PERMISSIONS.filter((p) => p !== FINANCIAL!.permission),
        ['203.0.113.7'],
        'pending',
      );
      await patchAccount(live.stack, account.id, { status: 'blocked' });
      // Every check fails at once: each step fixes one failure and uncovers the next.
      expectError(await call(FINANCIAL!, { key, ip: '10.9.9.9' }), 403, 'ip_not_allowed');
      expectError(await call(FINANCIAL!, { key, ip: '203.0.113.7' }), 403, 'account_unavailable');
      await patchAccount(live.stack, account.id, { status: 'active' });
      expectError(await call(FINANCIAL!, { key, ip: '203.0.113.7' }), 403, 'permission_denied');
      const full = await createKey(live.stack, account.id, PERMISSIONS, ['203.0.113.7']);
      expectError(await call(FINANCIAL!, { key: full.key, ip: '203.0.113.7' }), 403, 'kyc_required');
      await admin(live.stack, 'DELETE', `/api-keys/${id}`);
      expectError(await call(FINANCIAL!, { key, ip: '10.9.9.9' }), 401, 'invalid_api_key');
    });
  });

  describe('revocation', () => {
    it('takes effect on the very next request, on every API process of the database', async () => {
      const replica = await startApiReplica(live.stack);
      const { key, id } = await merchant();
      expectPastGuard(await call(PROBE!, { key }), 'process A before');
      expectPastGuard(await call(PROBE!, { key, baseUrl: replica.baseUrl }), 'process B before');
      const revoked = await admin(live.stack, 'DELETE', `/api-keys/${id}`);
      expect(revoked.status).toBe(200);
      expectError(await call(PROBE!, { key, baseUrl: replica.baseUrl }), 401, 'invalid_api_key');
      expectError(await call(PROBE!, { key }), 401, 'invalid_api_key');
    });
  });
});

describe('caller IP without a trusted proxy', () => {
  const live = liveStack();

  it('is the socket address: X-Forwarded-For is ignored', async () => {
    const account = await createAccount(live.stack);
    const spoofer = await createKey(live.stack, account.id, PERMISSIONS, ['203.0.113.7']);
    const local = await createKey(live.stack, account.id, PERMISSIONS, ['127.0.0.1']);
    const headers = { 'x-forwarded-for': '203.0.113.7' };
    expectError(await http('GET', `${live.stack.baseUrl}${PROBE!.path}`, { token: spoofer.key, headers }), 403, 'ip_not_allowed');
    expectPastGuard(
      await http('GET', `${live.stack.baseUrl}${PROBE!.path}`, { token: local.key, headers: { 'x-forwarded-for': '10.0.0.1' } }),
      'socket address',
    );
  });
});
