// The read-only MCP server at /mcp, driven by the official SDK client over Streamable HTTP against
// the real stack: tools listed and called, the same permissions and the same shared quota as REST.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, http, startStack, type Stack } from '../helpers/stack.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { createAccount, createKey, createMerchant } from '../helpers/fixtures.js';

let stack: Stack;
const clients: Client[] = [];

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await stack?.stop();
});

async function mcpClient(key: string | null): Promise<Client> {
  const client = new Client({ name: 'pix-mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.rootUrl}/mcp`), {
    requestInit: { headers: key === null ? {} : { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** The JSON a tool answered: the REST envelope, or the error envelope of a refusal. */
function answer(result: Awaited<ReturnType<Client['callTool']>>): any {
  const [first] = result.content as Array<{ type: string; text: string }>;
  return JSON.parse(first!.text);
}

const withoutRequestId = ({ requestId: _, ...rest }: any) => rest;

/** One raw JSON-RPC POST to /mcp, as a client without the SDK sends it. */
function rpc(key: string, body: unknown) {
  return http('POST', `${stack.rootUrl}/mcp`, { token: key, body, headers: { accept: 'application/json, text/event-stream' } });
}

describe('MCP server over Streamable HTTP', () => {
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  let client: Client;

  beforeAll(async () => {
    merchant = await createMerchant(stack);
    client = await mcpClient(merchant.key);
  });

  it('lists the read-only tools with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_balance',
      'get_med',
      'get_recurrence',
      'get_statement',
      'get_transaction',
      'list_meds',
      'list_recurrences',
      'list_transactions',
    ]);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toMatch(/permission/);
    }
    const getTransaction = tools.find((t) => t.name === 'get_transaction')!;
    expect(getTransaction.inputSchema.required).toEqual(['id']);
    const list = tools.find((t) => t.name === 'list_transactions')!;
    expect(Object.keys(list.inputSchema.properties ?? {}).sort()).toEqual([
      'createdFrom',
      'createdTo',
      'limit',
      'page',
      'recurrenceId',
      'status',
      'type',
    ]);
    const statement = tools.find((t) => t.name === 'get_statement')!;
    expect(statement.inputSchema.required).toEqual(['from', 'to']);
    expect(statement.description).toMatch(/balance:read/);
  });

  it('answers every tool with what the REST route answers', async () => {
    const balance = await client.callTool({ name: 'get_balance', arguments: {} });
    expect(balance.isError).toBeFalsy();
    expect(withoutRequestId(balance.structuredContent)).toEqual(withoutRequestId((await merchant.client.get('/balance')).body));
    expect(answer(balance).data).toEqual({ currency: 'BRL', available: 0, reserved: 0 });

    const list = await client.callTool({ name: 'list_transactions', arguments: { page: 1, limit: 5, status: 'approved' } });
    expect(list.isError).toBeFalsy();
    expect(withoutRequestId(list.structuredContent)).toEqual(
      withoutRequestId((await merchant.client.get('/transactions?page=1&limit=5&status=approved')).body),
    );

    const missing = await client.callTool({ name: 'get_transaction', arguments: { id: 'txn_does_not_exist' } });
    expect(missing.isError).toBe(true);
    expect(answer(missing)).toEqual({ success: false, error: { code: 'not_found', message: expect.any(String) } });
  });

  it('reads a paid charge, its dispute and the balance they leave, as REST does', async () => {
    const charge = await createCharge(merchant.client, { amount: 80 });
    expect((await payCharge(stack, charge.id)).status).toBe(200);
    await waitForStatus(merchant.client, charge.id, 'approved');
    const med = await admin(stack, 'POST', '/simulator/meds', { transactionId: charge.id, amount: 30 });
    expect(med.status).toBe(201);

    const window = { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['get_transaction', { id: charge.id }, `/transactions/${charge.id}`],
      ['list_transactions', { status: 'approved' }, '/transactions?status=approved'],
      ['get_med', { id: med.body.data.id }, `/meds/${med.body.data.id}`],
      ['get_med', { id: charge.id }, `/meds/${charge.id}`],
      ['list_meds', { status: 'open', limit: 10 }, '/meds?status=open&limit=10'],
      ['get_balance', {}, '/balance'],
      ['get_statement', { ...window, limit: 2 }, `/statement?${new URLSearchParams(window)}&limit=2`],
    ];
    for (const [name, args, path] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      expect(withoutRequestId(result.structuredContent), name).toEqual(withoutRequestId((await merchant.client.get(path)).body));
    }
    const balance = answer(await client.callTool({ name: 'get_balance', arguments: {} }));
    expect(balance.data).toEqual({ currency: 'BRL', available: 50, reserved: 30 });
    const meds = answer(await client.callTool({ name: 'list_meds', arguments: {} }));
    expect(meds.data.map((m: { id: string }) => m.id)).toEqual([med.body.data.id]);
  });

  it('answers plain JSON-RPC over HTTP with the service headers', async () => {
    const res = await http('POST', `${stack.rootUrl}/mcp`, {
      token: merchant.key,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-service-version')).toBe('1.1.0');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
  });

  it('refuses bad arguments with the REST error codes', async () => {
    const badStatus = await client.callTool({ name: 'list_transactions', arguments: { status: 'paid' } });
    expect(badStatus.isError).toBe(true);
    expect(answer(badStatus).error).toMatchObject({ code: 'invalid_status', param: '/status' });
    const badLimit = await client.callTool({ name: 'list_transactions', arguments: { limit: 1000 } });
    expect(answer(badLimit).error).toMatchObject({ code: 'invalid_request', param: '/limit' });
    const badRefresh = await client.callTool({ name: 'get_transaction', arguments: { id: 'txn_x', refresh: 'sim' } });
    expect(answer(badRefresh).error).toMatchObject({ code: 'invalid_request', param: '/refresh' });
    const badMedStatus = await client.callTool({ name: 'list_meds', arguments: { status: 'closed' } });
    expect(answer(badMedStatus).error.code).toBe('invalid_med_status');
    const noWindow = await client.callTool({ name: 'get_statement', arguments: { from: '2025-01-01T00:00:00Z' } });
    expect(answer(noWindow).error).toMatchObject({ code: 'invalid_request', param: '/to' });
    const noId = await client.callTool({ name: 'get_transaction', arguments: {} });
    expect(answer(noId).error.code).toBe('invalid_request');
    await expect(client.callTool({ name: 'create_charge', arguments: {} })).rejects.toThrow(/desconhecida/);
  });

  it('answers params of the wrong type with a short JSON-RPC invalid-params error, not a schema dump', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'get_balance', arguments: 'x' }, /arguments deve ser um objeto$/],
      [{ name: 'get_balance', arguments: [1, 2] }, /arguments deve ser um objeto$/],
      [{ name: 'get_balance', arguments: 5 }, /arguments deve ser um objeto$/],
      [{ name: 42, arguments: {} }, /name deve ser um texto$/],
    ];
    for (const [params, message] of cases) {
      const res = await rpc(merchant.key, { jsonrpc: '2.0', id: 3, method: 'tools/call', params });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.stringMatching(message) } });
      expect(res.body.error.message.length).toBeLessThan(100);
    }
    const init = await rpc(merchant.key, {
      jsonrpc: '2.0',
      id: 4,
      method: 'initialize',
      params: { protocolVersion: 2025, capabilities: {}, clientInfo: {} },
    });
    expect(init.body.error).toEqual({
      code: -32602,
      message: 'Parâmetros inválidos em initialize: params.protocolVersion deve ser um texto',
    });

    // In a batch, only the bad request is refused; the others are answered.
    const batch = await rpc(merchant.key, [
      { jsonrpc: '2.0', id: 'good', method: 'tools/call', params: { name: 'get_balance', arguments: {} } },
      { jsonrpc: '2.0', id: 'bad', method: 'tools/call', params: { name: 'get_balance', arguments: 'x' } },
    ]);
    expect(batch.status).toBe(200);
    const byId = new Map((batch.body as any[]).map((m) => [m.id, m]));
    expect(byId.get('good').result.structuredContent.data).toEqual({
      currency: 'BRL',
      available: expect.any(Number),
      reserved: expect.any(Number),
    });
    expect(byId.get('bad').error.code).toBe(-32602);
  });
});

describe('MCP authentication and permissions', () => {
  it('refuses a missing, malformed or revoked key with HTTP 401 and a JSON-RPC error', async () => {
    await expect(mcpClient(null)).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient('pix_live_not-a-real-key')).rejects.toBeInstanceOf(StreamableHTTPError);

    const account = await createAccount(stack);
    const key = await createKey(stack, account.id);
    expect((await admin(stack, 'DELETE', `/api-keys/${key.id}`)).status).toBe(200);
    await expect(mcpClient(key.key)).rejects.toMatchObject({ code: 401 });

    const raw = await http('POST', `${stack.rootUrl}/mcp`, {
      body: { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(raw.status).toBe(401);
    // Refused before the body is read, so without its id.
    expect(raw.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32010,
        message: expect.any(String),
        data: { status: 401, code: 'invalid_api_key', requestId: raw.headers.get('x-request-id') },
      },
    });
  });

  it('refuses a tool whose permission the key lacks; its request counts once, as any MCP request', async () => {
    const account = await createAccount(stack);
    const key = await createKey(stack, account.id, ['balance:read']);
    const client = await mcpClient(key.key); // initialize and notifications/initialized: 2 requests
    const refused = await client.callTool({ name: 'list_transactions', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(answer(refused)).toEqual({
      success: false,
      error: { code: 'permission_denied', message: expect.stringContaining('transactions:read') },
    });
    const allowed = await client.callTool({ name: 'get_balance', arguments: {} });
    expect(allowed.isError).toBeFalsy();
    // 2 requests to connect, the refused call, the allowed one: the REST call after them is the fifth of the window.
    const rest = await http('GET', `${stack.baseUrl}/balance`, { token: key.key });
    expect(rest.headers.get('ratelimit-remaining')).toBe('95');
  });

  it('refuses every tool of a blocked account and of a key outside its IP allow-list', async () => {
    const restricted = await createAccount(stack);
    const ipKey = await createKey(stack, restricted.id, undefined, ['203.0.113.7']);
    await expect(mcpClient(ipKey.key)).rejects.toMatchObject({ code: 403 });
    const blocked = await createAccount(stack);
    const blockedKey = await createKey(stack, blocked.id);
    expect((await admin(stack, 'PATCH', `/accounts/${blocked.id}`, { status: 'blocked' })).status).toBe(200);
    await expect(mcpClient(blockedKey.key)).rejects.toMatchObject({ code: 403 });
  });

  it('answers GET and DELETE with 405 (stateless server, no session stream)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await http(method, `${stack.rootUrl}/mcp`);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe('one quota for REST and MCP', () => {
  it('takes one unit for every MCP request, whatever its method, and one per request of a batch', async () => {
    const { key } = await createMerchant(stack);
    const calls: Array<[unknown, number]> = [
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, 99],
      [{ jsonrpc: '2.0', id: 2, method: 'ping' }, 98],
      [
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        97,
      ],
      [{ jsonrpc: '2.0', id: 4, method: 'resources/list', params: {} }, 96],
      [{ jsonrpc: '2.0', method: 'notifications/initialized' }, 95],
      [[1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })), 92],
    ];
    for (const [body, remaining] of calls) {
      const res = await rpc(key, body);
      expect(res.status, res.text).toBeLessThan(300);
      expect(res.headers.get('ratelimit-remaining'), JSON.stringify(body)).toBe(String(remaining));
    }
  });

  it('counts 100 mixed REST and MCP requests against one window; the 101st of either is refused, whatever the MCP method', async () => {
    const { key } = await createMerchant(stack);
    const client = await mcpClient(key); // initialize and notifications/initialized: the first 2 requests
    for (let i = 2; i < 100; i += 1) {
      if (i % 2 === 0) {
        const rest = await http('GET', `${stack.baseUrl}/balance`, { token: key });
        expect(rest.status).toBe(200);
        expect(rest.headers.get('ratelimit-remaining')).toBe(String(99 - i));
      } else {
        const tool = await client.callTool({ name: i % 4 === 1 ? 'get_balance' : 'list_transactions', arguments: {} });
        expect(tool.isError).toBeFalsy();
      }
    }
    const rest = await http('GET', `${stack.baseUrl}/balance`, { token: key });
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('rate_limit_exceeded');

    for (const refused of [
      () => client.callTool({ name: 'get_balance', arguments: {} }),
      () => client.listTools(),
      () => client.ping(),
      () => mcpClient(key),
    ]) {
      const err = await refused().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StreamableHTTPError);
      expect((err as StreamableHTTPError).code).toBe(429);
      expect((err as Error).message).toContain('rate_limit_exceeded');
    }

    const bodies = [
      { jsonrpc: '2.0', id: 'q', method: 'tools/call', params: { name: 'get_balance', arguments: {} } },
      { jsonrpc: '2.0', id: 'l', method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
      {
        jsonrpc: '2.0',
        id: 'i',
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', id: 'u', method: 'no/such/method' },
    ];
    for (const body of bodies) {
      const raw = await rpc(key, body);
      expect(raw.status, body.method).toBe(429);
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(raw.headers.get('ratelimit-limit')).toBe('100');
      expect(raw.headers.get('ratelimit-remaining')).toBe('0');
      expect(raw.body).toEqual({
        jsonrpc: '2.0',
        id: body.id,
        error: {
          code: -32010,
          message: expect.any(String),
          data: { status: 429, code: 'rate_limit_exceeded', retryAfter: expect.any(Number), requestId: expect.stringMatching(/^req_/) },
        },
      });
    }

    // What the issue measured: 300 concurrent tools/list with the quota spent, every one refused.
    const burst = await Promise.all(
      Array.from({ length: 300 }, (_, id) => rpc(key, { jsonrpc: '2.0', id, method: 'tools/list', params: {} })),
    );
    expect(burst.filter((res) => res.status === 429)).toHaveLength(300);
  });
});
