// The OpenAPI 3.1 document the engine serves: valid for an independent validator, complete for the
// spec, and true: real answers of every operation it lists — successes and every documented error
// code — are validated against its response schemas with ajv (draft 2020-12). The contract test walks
// the operations of the served document, so a new route without probes fails here.
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { PERMISSIONS } from '../../src/accounts/permissions.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { chargeBody, createCharge, newKey, payCharge, postCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createAccount, createKey, createMerchant, patchAccount } from '../helpers/fixtures.js';
import { loadContract, type Contract, type Operation } from '../helpers/openapi-contract.js';
import { freePort } from '../../src/runtime/free-port.js';
import { admin, http, startStack, type HttpResult, type Stack } from '../helpers/stack.js';
import { tcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';
import { completeTransferOnceArrived } from '../helpers/transfers.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

let stack: Stack;
let contract: Contract;

beforeAll(async () => {
  // TRUST_PROXY lets the per-IP probes speak from addresses of their own (X-Forwarded-For).
  stack = await startStack({ env: { TRUST_PROXY: 'true', SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  contract = await loadContract(stack);
});

afterAll(async () => {
  await stack?.stop();
});

/** The spec's endpoint summary: every one must be in the document, with its permission. */
const SPEC_ENDPOINTS: Array<[string, string, string | null]> = [
  ['GET', '/balance', 'balance:read'],
  // books.md, "Statements".
  ['GET', '/statement', 'balance:read'],
  ['POST', '/transactions', 'payments:write'],
  ['GET', '/transactions', 'transactions:read'],
  ['GET', '/transactions/{id}', 'transactions:read'],
  ['POST', '/transfers', 'transfers:write'],
  ['GET', '/meds', 'transactions:read'],
  ['GET', '/meds/{id}', 'transactions:read'],
  // design/pix-automatico.md, "The API".
  ['POST', '/recurrences', 'payments:write'],
  ['GET', '/recurrences', 'transactions:read'],
  ['GET', '/recurrences/{id}', 'transactions:read'],
  ['DELETE', '/recurrences/{id}', 'payments:write'],
  ['POST', '/recurrences/{id}/charges', 'payments:write'],
  ['GET', '/transparency', null],
  ['GET', '/', null],
  ['GET', '/openapi.json', null],
  ['GET', '/docs', null],
  ['GET', '/llms.txt', null],
];

describe('the served OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    // The parser dereferences in place: give it a copy.
    const result = await validate(structuredClone(contract.document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(contract.document.openapi).toBe('3.1.0');
    expect(contract.document.info.version).toBe('1.1.0');
    expect(contract.document.servers).toEqual([{ url: '/v1', description: expect.any(String) }]);
  });

  it('covers every endpoint of the spec with its permission, and nothing undocumented', () => {
    const listed = contract.operations.map((op) => [op.method, op.path, op.permission]);
    expect(listed.sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  it('describes the bearer key with the permission of each operation, and the rate-limit headers', () => {
    const { document } = contract;
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const op of contract.operations) {
      const operation = document.paths[op.path][op.method.toLowerCase()];
      const too = operation.responses['429'];
      expect(too.headers['Retry-After'].required, op.operationId).toBe(true);
      expect(Object.keys(too.headers)).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id', 'X-Service-Version']),
      );
      if (op.permission === null) {
        expect(operation.security).toEqual([]);
        continue;
      }
      expect(operation.security).toEqual([{ apiKey: [op.permission] }]);
      expect(operation.description).toContain(op.permission);
      const pairs = contract.documented(op).map(([status, code]) => `${status} ${code}`);
      expect(pairs).toEqual(
        expect.arrayContaining([
          '401 invalid_api_key',
          '403 permission_denied',
          '403 ip_not_allowed',
          '403 account_unavailable',
          '429 rate_limit_exceeded',
          '500 internal_error',
        ]),
      );
      expect(Object.keys(operation.responses['200'].headers)).toEqual(
        expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
  });

  it('describes every webhook with its signed delivery headers and payload', () => {
    const { webhooks, components } = contract.document;
    expect(Object.keys(webhooks).sort()).toEqual([
      'med.created',
      'med.updated',
      'recurrence.updated',
      'refund.approved',
      'refund.created',
      'refund.failed',
      'transaction.approved',
      'transaction.cancelled',
      'transaction.failed',
      'transaction.refunded',
    ]);
    for (const [name, item] of Object.entries<any>(webhooks)) {
      const headers = item.post.parameters.filter((p: any) => p.in === 'header' && p.required).map((p: any) => p.name);
      expect(headers.sort()).toEqual(['X-Service-Delivery', 'X-Service-Event', 'X-Service-Signature']);
      const body = item.post.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(['id', 'event', 'createdAt', 'data']);
      expect(body.properties.event.const).toBe(name);
      const data = body.properties.data.$ref.split('/').pop();
      expect(data).toBe(
        name.startsWith('med.')
          ? 'Med'
          : name.startsWith('refund.')
            ? 'Refund'
            : name.startsWith('recurrence.')
              ? 'Recurrence'
              : 'Transaction',
      );
      expect(components.schemas[data].properties.id).toBeDefined();
    }
  });
});

describe('GET /v1 and GET /v1/llms.txt', () => {
  it('summarise the same operations as the document', async () => {
    const summary = await http('GET', stack.baseUrl);
    expect(summary.status).toBe(200);
    const fromDocument = contract.operations.map((op) => ({
      method: op.method,
      path: op.path,
      permission: op.permission,
      purpose: contract.document.paths[op.path][op.method.toLowerCase()].summary,
    }));
    expect(summary.body.data.endpoints).toEqual(fromDocument);
    expect(summary.body.data).toMatchObject({
      version: '1.1.0',
      baseUrl: '/v1',
      documentation: { openapi: '/v1/openapi.json', reference: '/v1/docs', llms: '/v1/llms.txt' },
      mcp: { url: '/mcp', transport: 'streamable-http' },
    });

    const llms = await http('GET', `${stack.baseUrl}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = llms.text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.startsWith('> '))).toBeDefined();
    expect(lines.filter((l) => l.startsWith('## '))).toEqual(['## Endpoints', '## Docs', '## Optional']);
    for (const op of contract.operations) {
      expect(
        lines.some((l) => l.startsWith(`- [${op.method} ${op.path}](/v1/openapi.json#/paths/`)),
        `${op.method} ${op.path}`,
      ).toBe(true);
    }
    expect(llms.text).toContain('(/v1/openapi.json)');
    expect(llms.text).toContain('(/mcp)');
  });

  it('GET /v1/docs renders every operation and webhook of the document, with nothing from another origin', async () => {
    const page = await http('GET', `${stack.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    for (const op of contract.operations) {
      expect(page.text, op.operationId).toContain(`id="${op.operationId}"`);
      expect(page.text, op.operationId).toContain(`<code>${op.path}</code>`);
    }
    for (const name of Object.keys(contract.document.webhooks)) expect(page.text, name).toContain(`<code>${name}</code>`);
    // A property of a request body, a parameter and a named schema are shown.
    expect(page.text).toContain('<code>coverFee</code>');
    expect(page.text).toContain('<code>createdFrom</code>');
    expect(page.text).toContain('id="schema-Transaction"');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/https?:|\*/);
    // No script at all, and every link or asset is relative (served by the engine).
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });

  it('use PUBLIC_BASE_URL for the addresses when it is set', async () => {
    const other = await startStack({ env: { PUBLIC_BASE_URL: 'https://pix.example.com/' } });
    try {
      const doc = await http('GET', `${other.baseUrl}/openapi.json`);
      expect(doc.body.servers[0].url).toBe('https://pix.example.com/v1');
      expect(doc.body.info['x-mcp'].url).toBe('https://pix.example.com/mcp');
      const llms = await http('GET', `${other.baseUrl}/llms.txt`);
      expect(llms.text).toContain('(https://pix.example.com/v1/openapi.json)');
    } finally {
      await other.stop();
    }
  });
});

// ---- The contract test -------------------------------------------------------------------------

interface Probe {
  name: string;
  /** The status and error code (null for a success) the probe is meant to produce. */
  expect: [number, string | null];
  send: () => Promise<HttpResult>;
}

type Merchant = Awaited<ReturnType<typeof createMerchant>>;

interface World {
  merchant: Merchant;
  /** A second verified account, valid as a split recipient. */
  other: Merchant;
  pendingCharge: { id: string; key: string; body: Record<string, unknown> };
  paidCharge: { id: string };
  medId: string;
  transfer: { key: string; body: Record<string, unknown> };
  refusingMerchant: Merchant;
  blockedWithdrawals: Merchant;
  emptyMerchant: Merchant;
  /** A receiver that is a person (CPF): refused recurrences. */
  personMerchant: Merchant;
  pendingRecurrence: { id: string; key: string; body: Record<string, unknown> };
  /** A recurrence the probes cancel (200, then 409 for the second cancellation). */
  cancellable: { id: string };
  /** An authorized recurrence of variable amount (50 to 100), and a cycle charge key with its body. */
  variable: { id: string; key: string; body: Record<string, unknown> };
}

const inDays = (days: number) => addDays(saoPauloDate(new Date()), days);
const recurrenceBody = (overrides: Record<string, unknown> = {}) => ({
  payer: { name: 'Maria da Silva', document: '52998224725' },
  contract: 'CTR-contrato',
  description: 'Plano mensal',
  frequency: 'monthly',
  firstDueDate: inDays(5),
  amount: 99.9,
  ...overrides,
});

const transferBody = (amount = 5) => ({ amount, pixKey: 'destino@example.com', pixKeyType: 'email', description: 'Saque contrato' });

async function buildWorld(): Promise<World> {
  const [merchant, other, refusingMerchant, blockedWithdrawals, emptyMerchant, personMerchant] = await Promise.all([
    createMerchant(stack),
    createMerchant(stack),
    createMerchant(stack),
    createMerchant(stack),
    createMerchant(stack),
    createMerchant(stack, { document: generateCpf() }),
  ]);
  await patchAccount(stack, refusingMerchant.account.id, { pixReceivingEnabled: false });
  await patchAccount(stack, blockedWithdrawals.account.id, { withdrawalsBlocked: true });

  const paid = await createCharge(merchant.client, { amount: 100 });
  expect((await payCharge(stack, paid.id)).status).toBe(200);
  await waitForStatus(merchant.client, paid.id, 'approved');
  const med = await admin(stack, 'POST', '/simulator/meds', { transactionId: paid.id, amount: 10 });
  expect(med.status).toBe(201);

  const pendingKey = newKey('contract');
  const pendingBody = chargeBody({ amount: 25 });
  const pending = await postCharge(merchant.client, pendingBody, pendingKey);
  expect(pending.status).toBe(201);

  const recurrence = async (body: Record<string, unknown>, key = newKey('rec')) => {
    const res = await merchant.client.post('/recurrences', body, { 'Idempotency-Key': key });
    expect(res.status).toBe(201);
    return { id: res.body.data.id as string, key, body };
  };
  const pendingRecurrence = await recurrence(recurrenceBody());
  const cancellable = await recurrence(recurrenceBody());
  const variable = await recurrence(recurrenceBody({ amount: undefined, minimumAmount: 50 }));
  expect((await admin(stack, 'POST', `/simulator/recurrences/${variable.id}/authorize`, { maximumAmount: 100 })).status).toBe(200);

  return {
    personMerchant,
    pendingRecurrence,
    cancellable,
    variable: { id: variable.id, key: newKey('ciclo'), body: { dueDate: inDays(5), amount: 80 } },
    merchant,
    other,
    pendingCharge: { id: pending.body.data.id, key: pendingKey, body: pendingBody },
    paidCharge: { id: paid.id },
    medId: med.body.data.id,
    transfer: { key: newKey('saque'), body: transferBody() },
    refusingMerchant,
    blockedWithdrawals,
    emptyMerchant,
  };
}

/** The query of a statement window: the last `days` days, to a minute from now. */
const lastDays = (days: number) => {
  const to = Date.now() + 60_000;
  return new URLSearchParams({ from: new Date(to - days * 86_400_000).toISOString(), to: new Date(to).toISOString() }).toString();
};

/** Probes of each operation's own answers, by operationId. */
const PROBES: Record<string, (w: World) => Probe[]> = {
  getBalance: (w) => [{ name: 'balance', expect: [200, null], send: () => w.merchant.client.get('/balance') }],
  getStatement: (w) => [
    { name: 'statement', expect: [200, null], send: () => w.merchant.client.get(`/statement?${lastDays(2)}&limit=3`) },
    { name: 'no window', expect: [400, 'invalid_request'], send: () => w.merchant.client.get('/statement') },
    {
      name: 'to before from',
      expect: [400, 'invalid_request'],
      send: () => w.merchant.client.get('/statement?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z'),
    },
    { name: 'window over 31 days', expect: [400, 'invalid_request'], send: () => w.merchant.client.get(`/statement?${lastDays(32)}`) },
  ],
  createCharge: (w) => {
    const recipient = w.other.account.email;
    const split = (items: unknown[]) => chargeBody({ split: items });
    return [
      { name: 'new charge', expect: [201, null], send: () => postCharge(w.merchant.client, chargeBody()) },
      { name: 'repeat', expect: [200, null], send: () => postCharge(w.merchant.client, w.pendingCharge.body, w.pendingCharge.key) },
      {
        name: 'short payer name',
        expect: [400, 'invalid_request'],
        send: () => postCharge(w.merchant.client, chargeBody({ payer: { name: 'Al', document: '52998224725' } })),
      },
      { name: 'no key', expect: [400, 'idempotency_key_required'], send: () => postCharge(w.merchant.client, chargeBody(), null) },
      {
        name: 'bad key',
        expect: [400, 'invalid_idempotency_key'],
        send: () => postCharge(w.merchant.client, chargeBody(), 'chave com espaço'),
      },
      {
        name: 'split item without amount or percent',
        expect: [400, 'SPLIT_INVALID'],
        send: () => postCharge(w.merchant.client, split([{ recipient }])),
      },
      {
        name: 'split recipient invalid',
        expect: [400, 'SPLIT_RECIPIENT_INVALID'],
        send: () => postCharge(w.merchant.client, split([{ recipient: '%%%', amount: 1 }])),
      },
      {
        name: 'eleven recipients',
        expect: [400, 'SPLIT_TOO_MANY_RECIPIENTS'],
        send: () =>
          postCharge(w.merchant.client, split(Array.from({ length: 11 }, (_, i) => ({ recipient: `r${i}@example.com`, amount: 1 })))),
      },
      {
        name: 'unknown recipient',
        expect: [404, 'SPLIT_RECIPIENT_NOT_FOUND'],
        send: () => postCharge(w.merchant.client, split([{ recipient: 'ninguem@example.com', amount: 1 }])),
      },
      {
        name: 'key reused with another body',
        expect: [409, 'idempotency_conflict'],
        send: () => postCharge(w.merchant.client, chargeBody({ amount: 26 }), w.pendingCharge.key),
      },
      {
        name: 'self as recipient',
        expect: [409, 'SPLIT_RECIPIENT_SELF'],
        send: () => postCharge(w.merchant.client, split([{ recipient: w.merchant.account.id, amount: 1 }])),
      },
      {
        name: 'duplicated recipient',
        expect: [409, 'SPLIT_RECIPIENT_DUPLICATED'],
        send: () =>
          postCharge(
            w.merchant.client,
            split([
              { recipient, amount: 1 },
              { recipient, amount: 2 },
            ]),
          ),
      },
      {
        name: 'pix receiving disabled',
        expect: [422, 'operation_refused'],
        send: () => postCharge(w.refusingMerchant.client, chargeBody()),
      },
      {
        name: 'split larger than the sale',
        expect: [422, 'SPLIT_EXCEEDS_SALE'],
        send: () => postCharge(w.merchant.client, split([{ recipient, amount: 150 }])),
      },
    ];
  },
  listTransactions: (w) => [
    { name: 'list', expect: [200, null], send: () => w.merchant.client.get('/transactions?limit=2') },
    { name: 'page 0', expect: [400, 'invalid_request'], send: () => w.merchant.client.get('/transactions?page=0') },
    { name: 'unknown status', expect: [400, 'invalid_status'], send: () => w.merchant.client.get('/transactions?status=paid') },
    { name: 'unknown type', expect: [400, 'invalid_type'], send: () => w.merchant.client.get('/transactions?type=deposit') },
  ],
  getTransaction: (w) => [
    { name: 'by id', expect: [200, null], send: () => w.merchant.client.get(`/transactions/${w.pendingCharge.id}`) },
    { name: 'by externalId', expect: [200, null], send: () => w.merchant.client.get(`/transactions/${w.pendingCharge.key}`) },
    { name: 'unknown', expect: [404, 'not_found'], send: () => w.merchant.client.get('/transactions/txn_nao_existe') },
    {
      name: 'bad refresh',
      expect: [400, 'invalid_request'],
      send: () => w.merchant.client.get(`/transactions/${w.pendingCharge.id}?refresh=sim`),
    },
  ],
  createTransfer: (w) => [
    {
      name: 'new transfer',
      expect: [201, null],
      send: () => w.merchant.client.post('/transfers', w.transfer.body, { 'Idempotency-Key': w.transfer.key }),
    },
    {
      name: 'repeat',
      expect: [200, null],
      send: () => w.merchant.client.post('/transfers', w.transfer.body, { 'Idempotency-Key': w.transfer.key }),
    },
    {
      name: 'another while pending',
      expect: [409, 'WITHDRAWAL_IN_PROGRESS'],
      send: () => w.merchant.client.post('/transfers', transferBody(4), { 'Idempotency-Key': newKey() }),
    },
    {
      name: 'key reused with another body',
      expect: [409, 'idempotency_conflict'],
      send: () => w.merchant.client.post('/transfers', transferBody(6), { 'Idempotency-Key': w.transfer.key }),
    },
    {
      name: 'below the minimum',
      expect: [400, 'invalid_request'],
      send: () => w.merchant.client.post('/transfers', transferBody(1), { 'Idempotency-Key': newKey() }),
    },
    { name: 'no key', expect: [400, 'idempotency_key_required'], send: () => w.merchant.client.post('/transfers', transferBody()) },
    {
      name: 'bad key',
      expect: [400, 'invalid_idempotency_key'],
      send: () => w.merchant.client.post('/transfers', transferBody(), { 'Idempotency-Key': 'x'.repeat(101) }),
    },
    {
      name: 'insufficient balance',
      expect: [422, 'operation_refused'],
      send: () => w.emptyMerchant.client.post('/transfers', transferBody(), { 'Idempotency-Key': newKey() }),
    },
    {
      name: 'withdrawals blocked',
      expect: [423, 'invalid_request'],
      send: () => w.blockedWithdrawals.client.post('/transfers', transferBody(), { 'Idempotency-Key': newKey() }),
    },
  ],
  listMeds: (w) => [
    { name: 'list', expect: [200, null], send: () => w.merchant.client.get('/meds') },
    { name: 'limit 0', expect: [400, 'invalid_request'], send: () => w.merchant.client.get('/meds?limit=0') },
    { name: 'unknown status', expect: [400, 'invalid_med_status'], send: () => w.merchant.client.get('/meds?status=lost') },
  ],
  getMed: (w) => [
    { name: 'by MED id', expect: [200, null], send: () => w.merchant.client.get(`/meds/${w.medId}`) },
    { name: 'by transaction id', expect: [200, null], send: () => w.merchant.client.get(`/meds/${w.paidCharge.id}`) },
    { name: 'unknown', expect: [404, 'not_found'], send: () => w.merchant.client.get('/meds/med_nao_existe') },
  ],
  createRecurrence: (w) => {
    const post = (m: Merchant, body: unknown, key: string | null = newKey('rec')) =>
      m.client.post('/recurrences', body, key === null ? {} : { 'Idempotency-Key': key });
    return [
      { name: 'new recurrence', expect: [201, null], send: () => post(w.merchant, recurrenceBody()) },
      { name: 'repeat', expect: [200, null], send: () => post(w.merchant, w.pendingRecurrence.body, w.pendingRecurrence.key) },
      { name: 'no key', expect: [400, 'idempotency_key_required'], send: () => post(w.merchant, recurrenceBody(), null) },
      { name: 'bad key', expect: [400, 'invalid_idempotency_key'], send: () => post(w.merchant, recurrenceBody(), 'chave com espaço') },
      {
        name: 'amount and minimumAmount',
        expect: [400, 'invalid_request'],
        send: () => post(w.merchant, recurrenceBody({ minimumAmount: 10 })),
      },
      {
        name: 'key reused with another body',
        expect: [409, 'idempotency_conflict'],
        send: () => post(w.merchant, recurrenceBody({ amount: 10 }), w.pendingRecurrence.key),
      },
      { name: 'receiver not a company', expect: [422, 'operation_refused'], send: () => post(w.personMerchant, recurrenceBody()) },
    ];
  },
  listRecurrences: (w) => [
    { name: 'list', expect: [200, null], send: () => w.merchant.client.get('/recurrences?limit=2') },
    { name: 'limit 0', expect: [400, 'invalid_request'], send: () => w.merchant.client.get('/recurrences?limit=0') },
    { name: 'unknown status', expect: [400, 'invalid_status'], send: () => w.merchant.client.get('/recurrences?status=paid') },
  ],
  getRecurrence: (w) => [
    { name: 'by id', expect: [200, null], send: () => w.merchant.client.get(`/recurrences/${w.pendingRecurrence.id}`) },
    { name: 'by externalId', expect: [200, null], send: () => w.merchant.client.get(`/recurrences/${w.pendingRecurrence.key}`) },
    { name: 'unknown', expect: [404, 'not_found'], send: () => w.merchant.client.get('/recurrences/rec_nao_existe') },
  ],
  cancelRecurrence: (w) => {
    const cancel = (id: string) => http('DELETE', `${stack.baseUrl}/recurrences/${id}`, { token: w.merchant.key });
    return [
      { name: 'cancel', expect: [200, null], send: () => cancel(w.cancellable.id) },
      { name: 'cancel again', expect: [409, 'invalid_recurrence_status'], send: () => cancel(w.cancellable.id) },
      { name: 'unknown', expect: [404, 'not_found'], send: () => cancel('rec_nao_existe') },
    ];
  },
  createRecurrenceCharge: (w) => {
    const cycle = (id: string, body: unknown, key: string | null = newKey('ciclo')) =>
      w.merchant.client.post(`/recurrences/${id}/charges`, body, key === null ? {} : { 'Idempotency-Key': key });
    const { id, key, body } = w.variable;
    return [
      { name: 'new cycle charge', expect: [201, null], send: () => cycle(id, body, key) },
      { name: 'repeat', expect: [200, null], send: () => cycle(id, body, key) },
      { name: 'no key', expect: [400, 'idempotency_key_required'], send: () => cycle(id, body, null) },
      { name: 'bad key', expect: [400, 'invalid_idempotency_key'], send: () => cycle(id, body, 'chave com espaço') },
      {
        name: 'due date inside two days',
        expect: [400, 'invalid_request'],
        send: () => cycle(id, { dueDate: inDays(1), amount: 80 }),
      },
      { name: 'unknown recurrence', expect: [404, 'not_found'], send: () => cycle('rec_nao_existe', body) },
      { name: 'key reused with another body', expect: [409, 'idempotency_conflict'], send: () => cycle(id, { ...body, amount: 81 }, key) },
      { name: 'below minimumAmount', expect: [422, 'operation_refused'], send: () => cycle(id, { dueDate: inDays(5), amount: 49.99 }) },
    ];
  },
  getTransparency: () => [{ name: 'indicators', expect: [200, null], send: () => http('GET', `${stack.baseUrl}/transparency`) }],
  getServiceSummary: () => [{ name: 'summary', expect: [200, null], send: () => http('GET', stack.baseUrl) }],
  getOpenApiDocument: () => [{ name: 'document', expect: [200, null], send: () => http('GET', `${stack.baseUrl}/openapi.json`) }],
  getApiReference: () => [{ name: 'reference page', expect: [200, null], send: () => http('GET', `${stack.baseUrl}/docs`) }],
  getLlmsTxt: () => [{ name: 'llms.txt', expect: [200, null], send: () => http('GET', `${stack.baseUrl}/llms.txt`) }],
};

/** Documented answers that a healthy stack cannot be made to give here, and where they are covered. */
const NOT_PROBED: Record<string, string> = {
  'cancelRecurrence 202 null':
    "the recurrence's workflow slower than ACCEPT_WAIT_MS to take the cancellation: the answer is the recurrence as stored, validated by this document's schema like the 200",
  'createRecurrenceCharge 202 null':
    "a cycle charge's accept step slower than ACCEPT_WAIT_MS: the same creation path as createCharge's 202, probed on a stack with a 1 ms wait",
  '500 internal_error': 'unexpected failures: every route, the edge turns any unhandled error into it',
  '503 internal_error':
    'PostgreSQL unreachable, on every route: test/integration/database-outage.test.ts validates such answers against this document',
  'getTransparency 503 internal_error':
    'the database refusing connections: test/integration/transparency.test.ts validates it against this document',
  'createCharge 202 null': 'an accept step slower than ACCEPT_WAIT_MS: covered by the 202 probes below on a stack with a 1 ms wait',
  'createTransfer 202 null': 'same as createCharge',
};

/** The refusals of the guard, the same for every operation that needs a key. */
async function guardProbes(operations: Operation[]): Promise<Map<string, Probe[]>> {
  const noKyc = await createAccount(stack, { kycStatus: 'pending' });
  const blocked = await createAccount(stack);
  const restricted = await createAccount(stack);
  const exhausted = await createMerchant(stack);
  const [noKycKey, blockedKey, restrictedKey] = await Promise.all([
    createKey(stack, noKyc.id),
    createKey(stack, blocked.id),
    createKey(stack, restricted.id, PERMISSIONS, ['203.0.113.7']),
  ]);
  await patchAccount(stack, blocked.id, { status: 'blocked' });
  for (let i = 0; i < 100; i += 1) expect((await exhausted.client.get('/balance')).status).toBe(200);
  const lacking = new Map<string, string>();
  for (const permission of PERMISSIONS) {
    lacking.set(
      permission,
      (
        await createKey(
          stack,
          exhausted.account.id,
          PERMISSIONS.filter((p) => p !== permission),
        )
      ).key,
    );
  }
  // Public operations: one address of their own spends its per-IP window.
  const spentIp = { 'x-forwarded-for': '198.51.100.77' };
  for (let i = 0; i < 300; i += 1) expect((await http('GET', stack.baseUrl, { headers: spentIp })).status).toBe(200);

  const probes = new Map<string, Probe[]>();
  for (const op of operations) {
    const url = `${stack.baseUrl}${op.path.replace(/\{[^}]+\}/g, 'contract-probe')}`;
    const send = (token?: string, headers?: Record<string, string>) => () => http(op.method, url, { token, headers });
    if (op.permission === null) {
      probes.set(op.operationId, [{ name: 'per-IP limit', expect: [429, 'rate_limit_exceeded'], send: send(undefined, spentIp) }]);
      continue;
    }
    const documented = contract.documented(op).map(([s, c]) => `${s} ${c}`);
    probes.set(op.operationId, [
      { name: 'no key', expect: [401, 'invalid_api_key'], send: send() },
      { name: 'malformed key', expect: [401, 'invalid_api_key'], send: send('nao-e-uma-chave') },
      { name: 'key without the permission', expect: [403, 'permission_denied'], send: send(lacking.get(op.permission)) },
      { name: 'IP outside the allow-list', expect: [403, 'ip_not_allowed'], send: send(restrictedKey.key) },
      { name: 'blocked account', expect: [403, 'account_unavailable'], send: send(blockedKey.key) },
      ...(documented.includes('403 kyc_required')
        ? [{ name: 'identity not verified', expect: [403, 'kyc_required'] as [number, string], send: send(noKycKey.key) }]
        : []),
      { name: 'quota spent', expect: [429, 'rate_limit_exceeded'], send: send(exhausted.key) },
    ]);
  }
  return probes;
}

/** 202 of the creations, on a stack whose accept wait is shorter than any accept step. */
async function slowAcceptProbes(): Promise<{ stack: Stack; probes: Map<string, Probe[]> }> {
  const slow = await startStack({ env: { ACCEPT_WAIT_MS: '1', SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  const merchant = await createMerchant(slow);
  return {
    stack: slow,
    probes: new Map([
      ['createCharge', [{ name: 'accept still running', expect: [202, null], send: () => postCharge(merchant.client, chargeBody()) }]],
      [
        'createTransfer',
        [
          {
            name: 'accept still running',
            expect: [202, null],
            send: () => merchant.client.post('/transfers', transferBody(), { 'Idempotency-Key': newKey() }),
          },
        ],
      ],
    ]),
  };
}

/** 503 of the creations: Temporal unreachable (cut behind a relay) after the stack started. */
async function outageProbes(): Promise<{ stack: Stack; relay: TcpRelay; probes: Map<string, Probe[]> }> {
  const port = await freePort();
  const relay = tcpRelay(port, inject('temporalAddress'));
  await relay.open();
  const cut = await startStack({
    env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, ACCEPT_WAIT_MS: '300', SIMULATOR_TRANSFER_DELAY_MS: '-1' },
  });
  const merchant = await createMerchant(cut);
  await relay.cut();
  return {
    stack: cut,
    relay,
    probes: new Map([
      [
        'createCharge',
        [{ name: 'Temporal unreachable', expect: [503, 'internal_error'], send: () => postCharge(merchant.client, chargeBody()) }],
      ],
      [
        'createTransfer',
        [
          {
            name: 'Temporal unreachable',
            expect: [503, 'internal_error'],
            send: () => merchant.client.post('/transfers', transferBody(), { 'Idempotency-Key': newKey() }),
          },
        ],
      ],
    ]),
  };
}

const codeOf = (res: HttpResult): string | null => (res.status >= 400 ? (res.body?.error?.code ?? 'no-code') : null);

describe('contract: real answers of every operation against the served document', () => {
  it('answers every documented status and error code of every operation as the document says', async () => {
    const world = await buildWorld();
    const guard = await guardProbes(contract.operations);
    const slow = await slowAcceptProbes();
    const outage = await outageProbes();
    const problems: string[] = [];
    const seen = new Set<string>();
    try {
      for (const op of contract.operations) {
        const own = PROBES[op.operationId];
        if (!own) {
          problems.push(`${op.operationId}: no probes for this operation`);
          continue;
        }
        const probes = [
          ...own(world),
          ...(guard.get(op.operationId) ?? []),
          ...(slow.probes.get(op.operationId) ?? []),
          ...(outage.probes.get(op.operationId) ?? []),
        ];
        for (const probe of probes) {
          const res = await probe.send();
          const answered: [number, string | null] = [res.status, codeOf(res)];
          seen.add(`${op.operationId} ${answered[0]} ${answered[1]}`);
          const label = `${op.method} ${op.path} (${probe.name})`;
          if (answered[0] !== probe.expect[0] || answered[1] !== probe.expect[1]) {
            problems.push(`${label}: expected ${probe.expect.join(' ')}, answered ${answered.join(' ')}: ${res.text.slice(0, 300)}`);
          }
          for (const problem of contract.problems(op, res)) problems.push(`${label}: ${problem}`);
        }
      }
    } finally {
      await Promise.all([slow.stack.stop(), outage.stack.stop().then(() => outage.relay.cut())]);
    }
    expect(problems).toEqual([]);

    const unprobed = contract.operations.flatMap((op) =>
      contract
        .documented(op)
        .map(([status, code]) => `${op.operationId} ${status} ${code}`)
        .filter((pair) => !seen.has(pair) && !NOT_PROBED[pair] && !NOT_PROBED[pair.split(' ').slice(1).join(' ')]),
    );
    expect(unprobed).toEqual([]);
  });
});

describe('webhook deliveries against the document', () => {
  it('delivers transaction and MED events with the headers and payloads described under webhooks', async () => {
    const receiver = await startReceiver();
    try {
      const merchant = await createMerchant(stack);
      expect((await admin(stack, 'POST', `/accounts/${merchant.account.id}/webhook-endpoints`, { url: receiver.url })).status).toBe(201);
      const charge = await createCharge(merchant.client, { amount: 40 });
      expect((await payCharge(stack, charge.id)).status).toBe(200);
      await waitForStatus(merchant.client, charge.id, 'approved');
      const med = await admin(stack, 'POST', '/simulator/meds', { transactionId: charge.id, amount: 5 });
      expect(med.status).toBe(201);
      expect((await admin(stack, 'POST', `/meds/${med.body.data.id}/decision`, { outcome: 'rejected' })).status).toBe(200);
      const transfer = await merchant.client.post('/transfers', transferBody(), { 'Idempotency-Key': newKey() });
      expect(transfer.status).toBe(201);
      await completeTransferOnceArrived(stack, transfer.body.data.id, 'failed');

      const events = ['transaction.approved', 'med.created', 'med.updated', 'transaction.failed'];
      await eventually(() => events.every((e) => receiver.received.some((r) => r.headers['x-service-event'] === e)), 30_000, 100);
      expect(receiver.received.flatMap((delivery) => contract.webhookProblems(delivery))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
