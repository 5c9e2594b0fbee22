// The request quota over HTTP: 100 requests per 60-second window per key, starting at the key's
// first call, counted in PostgreSQL and shared by every route and every API process; the spec's
// 429; and the per-IP protection of the public routes, which never touches a key's quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_LIMIT } from '../../src/api/public-limit.js';
import { PERMISSIONS, type Permission } from '../../src/accounts/permissions.js';
import type { RouteSpec } from '../../src/routing/public-route.js';
import { ROUTES } from '../../src/api/routes/index.js';
import { connect, type Sql } from '../../src/db/database.js';
import { startApiReplica } from '../helpers/api-replica.js';
import { createAccount, createKey } from '../helpers/fixtures.js';
import { http, startStack, type HttpResult, type Stack } from '../helpers/stack.js';

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
const GUARDED = ROUTES.filter((r) => r.permission !== null);
const PUBLIC = ROUTES.filter((r) => r.permission === null);
const BALANCE = ROUTES.find((r) => r.path === '/balance' && r.method === 'GET')!;
const LOOKUP = GUARDED.find((r) => r.method === 'GET' && r.path.includes(':'));

function url(base: string, route: RouteSpec): string {
  const path = route.path.replace(/:\w+/g, 'txn_desconhecida');
  return `${base}${path === '/' ? '' : path}`;
}

function quotaHeaders(res: HttpResult) {
  return {
    limit: Number(res.headers.get('ratelimit-limit')),
    remaining: Number(res.headers.get('ratelimit-remaining')),
    reset: Number(res.headers.get('ratelimit-reset')),
  };
}

function expect429(res: HttpResult, limit: number) {
  expect(res.status, res.text).toBe(429);
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(res.body).toEqual({
    success: false,
    code: 'rate_limit_exceeded',
    error: { code: 'rate_limit_exceeded', message: expect.any(String) },
    retryAfter: Number(retryAfter),
    requestId: expect.stringMatching(REQUEST_ID),
  });
  expect(quotaHeaders(res)).toEqual({ limit, remaining: 0, reset: expect.any(Number) });
  expect(quotaHeaders(res).reset).toBeGreaterThanOrEqual(1);
}

describe('rate limit', () => {
  let stack: Stack;
  let sql: Sql;
  beforeAll(async () => {
    stack = await startStack({ env: { TRUST_PROXY: 'true' } });
    sql = connect(stack.databaseUrl, { max: 2 });
  });
  afterAll(async () => {
    await sql?.end();
    await stack?.stop();
  });

  async function newKey(permissions: readonly Permission[] = PERMISSIONS) {
    const account = await createAccount(stack);
    return createKey(stack, account.id, permissions);
  }
  const balance = (key: string, base = stack.baseUrl) => http('GET', url(base, BALANCE), { token: key });
  const windowRow = async (keyId: string) =>
    (await sql<{ window_start: Date; count: number }[]>`select window_start, count from rate_limit_windows where key_id = ${keyId}`)[0];

  /** Spends the key's whole budget; returns the last successful answer. */
  async function exhaust(key: string) {
    let last: HttpResult | undefined;
    for (let i = 0; i < 100; i += 1) {
      last = await balance(key);
      expect(last.status, last.text).toBe(200);
    }
    return last!;
  }

  it('counts down on every authenticated answer, errors after authentication included', async () => {
    const { key } = await newKey();
    const first = await balance(key);
    expect(quotaHeaders(first)).toEqual({ limit: 100, remaining: 99, reset: 60 });
    const second = await balance(key);
    expect(quotaHeaders(second)).toMatchObject({ limit: 100, remaining: 98 });
    expect(LOOKUP).toBeDefined();
    const notFound = await http('GET', url(stack.baseUrl, LOOKUP!), { token: key });
    expect(notFound.status).toBe(404);
    expect(quotaHeaders(notFound)).toMatchObject({ limit: 100, remaining: 97 });
  });

  it("starts the window at the key's first call, not at its creation", async () => {
    const { key, id } = await newKey();
    expect(await windowRow(id)).toBeUndefined();
    // A moment between the key's creation and its first call, on the database's clock (to the microsecond).
    const between = (await sql<{ at: string }[]>`select clock_timestamp()::text as at`)[0]!.at;
    const first = await balance(key);
    expect(quotaHeaders(first)).toEqual({ limit: 100, remaining: 99, reset: 60 });
    expect((await windowRow(id))!.count).toBe(1);
    const [order] = await sql<{ created_before: boolean; window_after: boolean }[]>`
      select k.created_at < ${between}::timestamptz as created_before, w.window_start >= ${between}::timestamptz as window_after
        from api_keys k join rate_limit_windows w on w.key_id = k.id where k.id = ${id}`;
    expect(order).toEqual({ created_before: true, window_after: true });
  });

  it("answers the 101st request of a window with the spec's 429, on every route of the key, and not for other keys", async () => {
    const { key } = await newKey();
    const other = await newKey();
    const last = await exhaust(key);
    expect(quotaHeaders(last).remaining).toBe(0);
    expect429(await balance(key), 100);
    for (const route of GUARDED)
      expect429(await http(route.method, url(stack.baseUrl, route), { token: key, body: route.method === 'POST' ? {} : undefined }), 100);
    expect((await balance(other.key)).status).toBe(200);
  });

  it('starts a new window once the current one has ended', async () => {
    const { key, id } = await newKey();
    await exhaust(key);
    expect429(await balance(key), 100);
    // Move the window 61 s into the past, as if a minute had gone by.
    await sql`update rate_limit_windows set window_start = window_start - interval '61 seconds' where key_id = ${id}`;
    const fresh = await balance(key);
    expect(fresh.status).toBe(200);
    expect(quotaHeaders(fresh)).toEqual({ limit: 100, remaining: 99, reset: 60 });
  });

  it('counts concurrent requests exactly: 100 pass, the rest are refused', async () => {
    const { key } = await newKey();
    const answers = await Promise.all(Array.from({ length: 130 }, () => balance(key)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30);
    const remainings = answers
      .filter((a) => a.status === 200)
      .map((a) => quotaHeaders(a).remaining)
      .sort((a, b) => a - b);
    expect(remainings).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('does not count requests refused by authentication or authorization', async () => {
    const account = await createAccount(stack);
    const restricted = await createKey(
      stack,
      account.id,
      PERMISSIONS.filter((p) => p !== BALANCE.permission),
    );
    const revoked = await createKey(stack, account.id, PERMISSIONS);
    await http('DELETE', `${stack.adminUrl}/api-keys/${revoked.id}`, { token: 'test-admin-token' });
    for (let i = 0; i < 5; i += 1) {
      expect((await balance(restricted.key)).status).toBe(403);
      expect((await balance(revoked.key)).status).toBe(401);
    }
    expect(await windowRow(restricted.id)).toBeUndefined();
    expect(await windowRow(revoked.id)).toBeUndefined();
  });

  it('shares one budget between two API processes on one database', async () => {
    const replica = await startApiReplica(stack);
    const { key } = await newKey();
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => balance(key, i % 2 ? replica.baseUrl : stack.baseUrl)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
    expect429(await balance(key, replica.baseUrl), 100);
    expect429(await balance(key, stack.baseUrl), 100);
  });

  describe('public routes', () => {
    it('exist in the route table', () => {
      expect(PUBLIC.length).toBeGreaterThan(0);
    });

    it("never consume nor check a key's quota, even when the key is spent", async () => {
      const { key, id } = await newKey();
      await exhaust(key);
      const before = await windowRow(id);
      for (const route of PUBLIC) {
        const res = await http(route.method, url(stack.baseUrl, route), { token: key, headers: { 'x-forwarded-for': '192.0.2.10' } });
        expect([401, 403, 429], `${route.method} ${route.path}: ${res.status}`).not.toContain(res.status);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
      expect(await windowRow(id)).toEqual(before);
    });

    it(`refuse an IP past ${PUBLIC_LIMIT} requests a minute with the spec's 429, other IPs unaffected`, async () => {
      const route = PUBLIC[0]!;
      const from = (ip: string) => http(route.method, url(stack.baseUrl, route), { headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < PUBLIC_LIMIT; i += 1) {
        const res = await from('192.0.2.77');
        expect([401, 403, 429], `request ${i + 1}: ${res.status}`).not.toContain(res.status);
      }
      expect429(await from('192.0.2.77'), PUBLIC_LIMIT);
      expect([401, 403, 429]).not.toContain((await from('192.0.2.78')).status);
    });
  });
});
