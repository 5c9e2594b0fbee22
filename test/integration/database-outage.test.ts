// While PostgreSQL refuses the engine's connections (the database closed to them and its sessions ended,
// as a restart or a failover does), every API (and the MCP server) answers 503 `internal_error` with a
// Retry-After, in the envelope and as the served OpenAPI documents say, with nothing about the database in
// it (the log says why); once it accepts them again, the same request with the same key is served once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { ADMIN_DATABASE_URL } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { loadContract, type Contract } from '../helpers/openapi-contract.js';
import { ADMIN_TOKEN, http, startStack, type HttpResult, type Stack } from '../helpers/stack.js';

let stack: Stack;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
let publicContract: Contract;
let adminContract: Contract;

beforeAll(async () => {
  stack = await startStack();
  merchant = await createMerchant(stack);
  publicContract = await loadContract(stack);
  adminContract = await loadContract(stack, { url: `${stack.adminUrl}/openapi.json`, token: ADMIN_TOKEN });
});

afterAll(async () => {
  await stack?.stop();
});

const CHARGE = { amount: 12.34, payer: { name: 'Fulano de Tal', document: CPF.valid } };
const createCharge = () =>
  http('POST', `${stack.baseUrl}/transactions`, { token: merchant.key, body: CHARGE, headers: { 'idempotency-key': 'outage-charge-1' } });

function expectUnavailable(res: HttpResult, contract: Contract, operationId: string): void {
  expect(res.status, res.text).toBe(503);
  expect(res.body).toEqual({
    success: false,
    error: { code: 'internal_error', message: expect.any(String) },
    requestId: expect.any(String),
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.text).not.toMatch(/postgres|database|connection|allow_connections|at .*\.[jt]s/i);
  const operation = contract.operations.find((op) => op.operationId === operationId)!;
  expect(contract.problems(operation, res)).toEqual([]);
}

describe('a database that refuses connections', () => {
  it('answers 503 with a Retry-After on the public and admin APIs, then serves the repeated creation once', async () => {
    const name = decodeURIComponent(new URL(stack.databaseUrl).pathname.slice(1));
    const pg = connect(ADMIN_DATABASE_URL, { max: 1 });
    try {
      await pg.unsafe(`alter database "${name}" allow_connections false`);
      await pg`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name}`;

      expectUnavailable(await http('GET', `${stack.baseUrl}/balance`, { token: merchant.key }), publicContract, 'getBalance');
      expectUnavailable(await createCharge(), publicContract, 'createCharge');
      expectUnavailable(
        await http('GET', `${stack.adminUrl}/accounts/${merchant.account.id}`, { token: ADMIN_TOKEN }),
        adminContract,
        'getAccount',
      );
      // The MCP server answers its JSON-RPC refusal with the same status.
      const mcp = await http('POST', `${stack.rootUrl}/mcp`, {
        token: merchant.key,
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(mcp.status, mcp.text).toBe(503);
      expect(mcp.body.error.data).toMatchObject({ status: 503, code: 'internal_error' });
      expect(Number(mcp.headers.get('retry-after'))).toBeGreaterThan(0);
      // The operator's log says why, once per answer, without a stack trace; nothing is an unhandled error.
      const logged = () => stack.processes[0]!.output().match(/PostgreSQL unreachable: answered 503/g)?.length ?? 0;
      await eventually(() => logged() >= 4);
      expect(logged()).toBe(4);
      expect(stack.processes[0]!.output()).not.toContain('unhandled error');
    } finally {
      await pg.unsafe(`alter database "${name}" allow_connections true`);
      await pg.end({ timeout: 5 });
    }

    const created = await eventually(async () => {
      const res = await createCharge();
      return res.status === 503 ? undefined : res;
    });
    expect(created.status, created.text).toBe(201);
    const repeated = await createCharge();
    expect(repeated.status).toBe(200);
    expect(repeated.body.data.id).toBe(created.body.data.id);
    const listed = await http('GET', `${stack.baseUrl}/transactions`, { token: merchant.key });
    expect(listed.body.data.filter((t: { externalId: string }) => t.externalId === 'outage-charge-1')).toHaveLength(1);
  });
});
