// The generators of the self-description and of the MCP tool list, on a small route table of their own.
import { validate } from '@readme/openapi-parser';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../../src/routing/public-route.js';
import { toolsFor } from '../../src/mcp/tools.js';
import { SchemaComponents } from '../../src/openapi/components.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { rawResponse } from '../../src/openapi/envelopes.js';
import { routeErrors } from '../../src/openapi/errors.js';
import { apiBaseUrl, mcpUrl, pathParameterNames, specPath } from '../../src/openapi/paths.js';
import { llmsTxt, serviceSummary, type ServiceCatalogue } from '../../src/openapi/summary.js';

const Item = Type.Object({ id: Type.String(), amount: Type.Number() }, { additionalProperties: false });
const handler = async () => {};

const ROUTES: RouteSpec[] = [
  {
    method: 'POST',
    path: '/items',
    permission: 'payments:write',
    financial: true,
    summary: 'Create an item',
    operationId: 'createItem',
    request: { body: Type.Object({ amount: Type.Number() }), headers: Type.Object({ 'Idempotency-Key': Type.Optional(Type.String()) }) },
    response: Item,
    successStatuses: [201, 200, 202],
    idempotent: 'always',
    errors: [{ status: 409, code: 'idempotency_conflict' }],
    handler,
  },
  {
    method: 'GET',
    path: '/items',
    permission: 'transactions:read',
    financial: false,
    summary: 'List items',
    operationId: 'listItems',
    request: { query: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1 })), kind: Type.String() }) },
    response: Type.Array(Item),
    errors: [{ status: 400, code: 'invalid_request' }],
    handler,
  },
  {
    method: 'GET',
    path: '/items/:id/parts/:part',
    permission: 'transactions:read',
    financial: false,
    summary: 'One part',
    operationId: 'getItemPart',
    response: Item,
    handler,
  },
  {
    method: 'GET',
    path: '/notes.txt',
    permission: null,
    financial: false,
    summary: 'Notes',
    operationId: 'getNotes',
    response: rawResponse(Type.String(), 'text/plain'),
    handler,
  },
];

const catalogue = (routes = ROUTES): ServiceCatalogue => ({
  routes,
  baseUrl: '/v1',
  mcpUrl: '/mcp',
  mcpTools: toolsFor(routes).map((t) => t.name),
  events: [{ name: 'item.created', summary: 'An item was created', dataName: 'Item', data: Item, idPattern: '^evt_' }],
});

describe('paths and addresses', () => {
  it('writes Koa paths in the spec style', () => {
    expect(specPath('/transactions/:id')).toBe('/transactions/{id}');
    expect(specPath('/')).toBe('/');
    expect(pathParameterNames('/items/:id/parts/:part')).toEqual(['id', 'part']);
  });

  it('derives the base address and the MCP address from PUBLIC_BASE_URL', () => {
    expect(apiBaseUrl({ publicBaseUrl: null })).toBe('/v1');
    expect(apiBaseUrl({ publicBaseUrl: 'https://pix.example.com' })).toBe('https://pix.example.com/v1');
    expect(apiBaseUrl({ publicBaseUrl: 'https://pix.example.com/v1/' })).toBe('https://pix.example.com/v1');
    expect(mcpUrl({ publicBaseUrl: 'https://pix.example.com/v1' })).toBe('https://pix.example.com/mcp');
    expect(mcpUrl({ publicBaseUrl: null })).toBe('/mcp');
  });
});

describe('SchemaComponents', () => {
  it('references a named schema wherever an equal copy of it appears', () => {
    const components = new SchemaComponents();
    expect(components.name('Item', Item)).toEqual({ $ref: '#/components/schemas/Item' });
    expect(components.inline(Type.Object({ items: Type.Array(Item) }))).toEqual({
      type: 'object',
      required: ['items'],
      properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } } },
    });
  });

  it('lifts schemas that carry a $id, keeps a second name for equal content, and refuses one name for two contents', () => {
    const components = new SchemaComponents();
    expect(components.inline(Type.Object({ p: Type.Integer() }, { $id: 'P' }))).toEqual({ $ref: '#/components/schemas/P' });
    expect(components.schemas.P).toEqual({ type: 'object', required: ['p'], properties: { p: { type: 'integer' } } });
    components.name('A', Item);
    components.name('B', Item);
    expect(Object.keys(components.schemas)).toEqual(['P', 'A', 'B']);
    expect(() => components.name('A', Type.String())).toThrow(/two different schemas/);
  });
});

describe('routeErrors', () => {
  it('adds the guard, identity, body and failure errors to the route’s own, once each, by status', () => {
    expect(routeErrors(ROUTES[0]!).map((e) => `${e.status} ${e.code}`)).toEqual([
      '400 invalid_request',
      '401 invalid_api_key',
      '403 account_unavailable',
      '403 ip_not_allowed',
      '403 kyc_required',
      '403 permission_denied',
      '409 idempotency_conflict',
      '429 rate_limit_exceeded',
      '500 internal_error',
      '503 internal_error',
    ]);
    expect(routeErrors(ROUTES[3]!).map((e) => `${e.status} ${e.code}`)).toEqual([
      '429 rate_limit_exceeded',
      '500 internal_error',
      '503 internal_error',
    ]);
  });
});

describe('buildOpenApiDocument', () => {
  const document = buildOpenApiDocument(catalogue()) as any;

  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('wraps data in the envelope: idempotent on creations, pagination on lists, nothing around raw bodies', () => {
    const created = document.components.schemas.CreateItemResponse;
    expect(created.required).toEqual(['success', 'idempotent', 'data', 'requestId']);
    expect(created.properties.data).toEqual({ $ref: '#/components/schemas/Item' });
    expect(Object.keys(document.paths['/items'].post.responses)).toEqual([
      '200',
      '201',
      '202',
      '400',
      '401',
      '403',
      '409',
      '429',
      '500',
      '503',
    ]);
    const list = document.components.schemas.ListItemsResponse;
    expect(list.properties.pagination).toEqual({ $ref: '#/components/schemas/Pagination' });
    expect(document.paths['/notes.txt'].get.responses['200'].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
  });

  it('declares parameters from the schemas and from the path, with the permission and security of each operation', () => {
    const part = document.paths['/items/{id}/parts/{part}'].get;
    expect(part.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['id', 'path', true],
      ['part', 'path', true],
    ]);
    expect(part.security).toEqual([{ apiKey: ['transactions:read'] }]);
    expect(part['x-permission']).toBe('transactions:read');
    const list = document.paths['/items'].get;
    expect(list.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['page', 'query', false],
      ['kind', 'query', true],
    ]);
    expect(document.paths['/items'].post.parameters.map((p: any) => [p.name, p.in])).toEqual([['Idempotency-Key', 'header']]);
    expect(document.paths['/notes.txt'].get.security).toEqual([]);
    const codes = document.paths['/items'].post.responses['403'].content['application/json'].schema.properties.error.properties.code;
    expect(codes.enum).toEqual(['account_unavailable', 'ip_not_allowed', 'kyc_required', 'permission_denied']);
  });

  it('describes each event under webhooks with the delivery headers', () => {
    const post = document.webhooks['item.created'].post;
    expect(post.parameters.map((p: any) => p.name)).toEqual(['X-Service-Signature', 'X-Service-Event', 'X-Service-Delivery']);
    expect(post.requestBody.content['application/json'].schema.properties.data).toEqual({ $ref: '#/components/schemas/Item' });
  });
});

describe('GET /v1 summary and llms.txt', () => {
  it('list every route with method, spec path, permission and purpose', () => {
    expect(serviceSummary(catalogue()).endpoints).toEqual([
      { method: 'POST', path: '/items', permission: 'payments:write', purpose: 'Create an item' },
      { method: 'GET', path: '/items', permission: 'transactions:read', purpose: 'List items' },
      { method: 'GET', path: '/items/{id}/parts/{part}', permission: 'transactions:read', purpose: 'One part' },
      { method: 'GET', path: '/notes.txt', permission: null, purpose: 'Notes' },
    ]);
    const text = llmsTxt(catalogue());
    expect(text.split('\n')[0]).toBe('# Pix Payments Service');
    expect(text).toMatch(/^> .+$/m);
    expect(text).toContain(
      '- [GET /items/{id}/parts/{part}](/v1/openapi.json#/paths/~1items~1%7Bid%7D~1parts~1%7Bpart%7D/get): One part; permission `transactions:read`',
    );
    expect(text).toContain('`item.created`');
  });
});

describe('toolsFor', () => {
  it('makes one tool per authenticated GET route, named after its operationId, with path and query as input', () => {
    const tools = toolsFor(ROUTES);
    expect(tools.map((t) => t.name)).toEqual(['list_items', 'get_item_part']);
    expect(tools[0]!.inputSchema).toEqual({
      type: 'object',
      properties: { page: { type: 'integer', minimum: 1 }, kind: { type: 'string' } },
      required: ['kind'],
    });
    expect(tools[1]!.inputSchema.required).toEqual(['id', 'part']);
    expect(tools[0]!.outputSchema.properties).toMatchObject({ pagination: { $ref: '#/$defs/Pagination' } });
    expect(tools[0]!.outputSchema.$defs).toHaveProperty('Pagination');
  });
});
