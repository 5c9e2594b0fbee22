// GET /admin/openapi.json: the admin API's own OpenAPI 3.1 document, generated from the admin route
// table. Behind the admin token, valid for an independent validator, listing every admin route and
// nothing else, and true: real admin answers are checked against its schemas (ajv), and the defaults
// it documents for a new account are the ones an account gets.
import { validate } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../../src/admin/routes/index.js';
import { specPath } from '../../src/openapi/paths.js';
import { CPF } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { loadContract, type Contract, type Operation } from '../helpers/openapi-contract.js';
import { ADMIN_TOKEN, admin, http, type HttpResult } from '../helpers/stack.js';

const live = liveStack();
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract(live.stack, { url: `${live.stack.adminUrl}/openapi.json`, token: ADMIN_TOKEN });
});

const operation = (method: string, path: string): Operation => {
  const found = contract.operations.find((op) => op.method === method && op.path === path);
  if (!found) throw new Error(`${method} ${path} is not in the admin document`);
  return found;
};

function expectConforms(method: string, path: string, res: HttpResult): void {
  expect(contract.problems(operation(method, path), res), `${method} ${path} ${res.status}: ${res.text}`).toEqual([]);
}

describe('the admin OpenAPI document', () => {
  it('is behind the admin token like every /admin path', async () => {
    for (const token of [undefined, 'wrong']) {
      const res = await http('GET', `${live.stack.adminUrl}/openapi.json`, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
  });

  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    const result = await validate(structuredClone(contract.document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(contract.document).toMatchObject({ openapi: '3.1.0', info: { version: '1.1.0' }, servers: [{ url: '/admin' }] });
  });

  it('lists every admin route, and nothing else, each behind the token with its 401 and its errors', () => {
    const listed = contract.operations.map((op) => `${op.method} ${op.path}`).sort();
    expect(listed).toEqual(ADMIN_ROUTES.map((route) => `${route.method} ${specPath(route.path)}`).sort());
    for (const op of contract.operations) {
      const documented = contract.document.paths[op.path][op.method.toLowerCase()];
      expect(documented.security, op.operationId).toEqual([{ adminToken: [] }]);
      const pairs = contract.documented(op).map(([status, code]) => `${status} ${code}`);
      expect(pairs, op.operationId).toEqual(expect.arrayContaining(['401 unauthorized', '500 internal_error']));
      const route = ADMIN_ROUTES.find((r) => r.operationId === op.operationId)!;
      for (const { status, code } of route.errors ?? []) expect(pairs, op.operationId).toContain(`${status} ${code}`);
      if (route.request?.body) expect(pairs, op.operationId).toContain('400 invalid_request');
    }
    expect(contract.document.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents the defaults a new account gets', async () => {
    const request = contract.document.components.requestBodies.CreateAccountRequest.content['application/json'].schema;
    const res = await admin(live.stack, 'POST', '/accounts', {
      name: 'Padaria Padrão',
      document: CPF.valid,
      email: 'padrao@padaria.example',
      allowDuplicate: true,
    });
    expect(res.status).toBe(201);
    const defaulted = Object.entries<any>(request.properties).filter(([, property]) => property.default !== undefined);
    expect(defaulted.map(([name]) => name).sort()).toEqual([
      'allowDuplicate',
      'kycStatus',
      'limits',
      'pixReceivingEnabled',
      'route',
      'status',
      'withdrawalsBlocked',
    ]);
    for (const [name, property] of defaulted) {
      if (name !== 'allowDuplicate') expect(res.body.data[name], name).toEqual(property.default);
    }
    for (const rule of ['charge', 'transfer']) {
      expect(res.body.data.fees[rule], rule).toEqual(request.properties.fees.properties[rule].default);
    }
  });
});

describe('admin answers conform to the admin document', () => {
  it('for accounts, keys, deliveries and the ledger check, successes and refusals', async () => {
    const created = await admin(live.stack, 'POST', '/accounts', {
      name: 'Mercado Contrato',
      document: CPF.other,
      email: 'contrato@mercado.example',
      allowDuplicate: true,
    });
    expectConforms('POST', '/accounts', created);
    const id = created.body.data.id;
    expectConforms('POST', '/accounts', await admin(live.stack, 'POST', '/accounts', { name: 'x', document: 'x', email: 'x' }));
    expectConforms('GET', '/accounts/{id}', await admin(live.stack, 'GET', `/accounts/${id}`));
    expectConforms('GET', '/accounts/{id}', await admin(live.stack, 'GET', '/accounts/acc_unknown'));
    expectConforms('PATCH', '/accounts/{id}', await admin(live.stack, 'PATCH', `/accounts/${id}`, { fees: { charge: { percent: 1.5 } } }));
    const key = await admin(live.stack, 'POST', `/accounts/${id}/api-keys`, { permissions: ['balance:read'], allowedIps: ['10.0.0.0/8'] });
    expectConforms('POST', '/accounts/{id}/api-keys', key);
    expectConforms('GET', '/accounts/{id}/api-keys', await admin(live.stack, 'GET', `/accounts/${id}/api-keys`));
    expectConforms('DELETE', '/api-keys/{id}', await admin(live.stack, 'DELETE', `/api-keys/${key.body.data.id}`));
    expectConforms('GET', '/accounts/{id}/webhook-endpoints', await admin(live.stack, 'GET', `/accounts/${id}/webhook-endpoints`));
    expectConforms('GET', '/webhook-deliveries', await admin(live.stack, 'GET', '/webhook-deliveries?eventId=evt_none'));
    expectConforms('GET', '/webhook-deliveries', await admin(live.stack, 'GET', '/webhook-deliveries'));
    expectConforms('GET', '/ledger/check', await admin(live.stack, 'GET', '/ledger/check'));
    const statement = `/accounts/${id}/statement?from=2025-01-01T00:00:00Z&to=2099-01-01T00:00:00Z`;
    expectConforms('GET', '/accounts/{id}/statement', await admin(live.stack, 'GET', statement));
    const csv = await http('GET', `${live.stack.adminUrl}${statement}`, { token: ADMIN_TOKEN, headers: { accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expectConforms('GET', '/accounts/{id}/statement', csv);
    expectConforms(
      'GET',
      '/accounts/{id}/statement',
      await admin(live.stack, 'GET', '/accounts/acc_unknown/statement?from=2025-01-01T00:00:00Z&to=2099-01-01T00:00:00Z'),
    );
    expectConforms(
      'GET',
      '/accounts/{id}/statement',
      await admin(live.stack, 'GET', `/accounts/${id}/statement?from=2025-01-01T00:00:00Z`),
    );
    expectConforms(
      'POST',
      '/simulator/transfers/{id}/complete',
      await admin(live.stack, 'POST', '/simulator/transfers/out_x/complete', { outcome: 'lost' }),
    );
  });

  it('refuses a bad admin query or body with param pointing at the field', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', '/webhook-deliveries?eventId=', undefined, '/eventId'],
      ['GET', '/accounts/acc_x/statement?from=2025-01-01&to=2025-01-02T00:00:00Z', undefined, '/from'],
      ['POST', '/simulator/meds', { transactionId: 'txn_x', amount: -1 }, '/amount'],
      ['POST', '/meds/med_x/decision', { outcome: 'maybe' }, '/outcome'],
      ['POST', '/simulator/charges/txn_x/pay', { payer: { state: 'sp' } }, '/payer/state'],
      ['POST', '/accounts/acc_x/api-keys', { permissions: ['balance:read'], allowedIps: ['10.0.0.1', 'x'] }, '/allowedIps/1'],
    ];
    for (const [method, path, body, param] of cases) {
      const res = await admin(live.stack, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error, `${method} ${path}`).toEqual({ code: 'invalid_request', message: expect.any(String), param });
    }
  });
});
