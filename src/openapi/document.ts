// The OpenAPI 3.1 document of the public API, generated from the route table and the same typebox
// schemas that validate requests and shape responses. Nothing here repeats a path or a field.
import type { TSchema } from 'typebox';
import type { RouteSpec } from '../api/routes.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { SchemaComponents, type Json } from './components.js';
import { errorEnvelope, RateLimitErrorSchema, rawMediaType, successEnvelope } from './envelopes.js';
import { CODE_MEANING, errorsByStatus, STATUS_MEANING } from './errors.js';
import { pathParameterNames, specPath } from './paths.js';
import type { ServiceCatalogue } from './summary.js';
import { webhookOperation } from './webhooks.js';


const SECURITY_SCHEME = 'apiKey';

const HEADERS: Record<string, { description: string; schema: Json }> = {
  'X-Request-Id': { description: 'Identifier of the request, equal to `requestId` in the body.', schema: { type: 'string' } },
  'X-Service-Version': { description: 'Version of the service contract (`1.1.0` for v1).', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the window (100 for the key quota).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before retrying (at least 1).', schema: { type: 'integer', minimum: 1 } },
};
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const SUCCESS_MEANING: Record<number, string> = {
  200: 'Success.',
  201: 'Created now.',
  202: 'Received and in automatic reconciliation; not a confirmation. Repeat with the same idempotency key.',
};
const REPEAT_MEANING = 'Idempotent repeat: the original operation is returned with `idempotent` true.';

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
// A Reference Object cannot carry `required`, so required headers are written inline.
const header = (name: string, required = false): Json => (required ? { ...HEADERS[name]!, required: true } : { $ref: `#/components/headers/${name}` });

function responseHeaders(route: RouteSpec, status: number): Record<string, Json> {
  const headers: Record<string, Json> = { 'X-Request-Id': header('X-Request-Id', true), 'X-Service-Version': header('X-Service-Version', true) };
  if (route.permission !== null || status === 429) for (const name of RATE_LIMIT_HEADERS) headers[name] = header(name);
  if (status === 429) headers['Retry-After'] = header('Retry-After', true);
  return headers;
}

function parameters(route: RouteSpec, components: SchemaComponents): Json[] {
  const fromSchema = (where: 'path' | 'query' | 'header', schema: TSchema | undefined): Json[] => {
    if (!schema) return [];
    const json = components.inline(schema) as { properties?: Record<string, Json & { description?: string }>; required?: string[] };
    return Object.entries(json.properties ?? {}).map(([name, property]) => ({
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(property.description ? { description: property.description } : {}),
      schema: property,
    }));
  };
  const declaredPath = fromSchema('path', route.request?.params);
  const declaredNames = new Set(declaredPath.map((p) => (p as { name: string }).name));
  const undeclaredPath = pathParameterNames(route.path)
    .filter((name) => !declaredNames.has(name))
    .map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  return [...declaredPath, ...undeclaredPath, ...fromSchema('query', route.request?.query), ...fromSchema('header', route.request?.headers)];
}

function successResponse(route: RouteSpec, status: number, components: SchemaComponents): Json {
  const name = pascal(route.operationId);
  const mediaType = rawMediaType(route.response);
  const schema = mediaType
    ? components.inline(route.response!)
    : components.name(`${name}Response`, successEnvelope(route, route.response ?? ({} as TSchema)));
  const description = route.method === 'POST' && status === 200 ? REPEAT_MEANING : (SUCCESS_MEANING[status] ?? 'Success.');
  return { description, headers: responseHeaders(route, status), content: { [mediaType ?? 'application/json']: { schema } } };
}

function errorResponse(route: RouteSpec, status: number, codes: string[], components: SchemaComponents): Json {
  const lines = codes.map((code) => `- \`${code}\`${CODE_MEANING[code] ? `: ${CODE_MEANING[code]}` : ''}`);
  const schema = status === 429 ? components.inline(RateLimitErrorSchema) : components.inline(errorEnvelope(codes));
  return {
    description: [STATUS_MEANING[status] ?? 'Error.', '', ...lines].join('\n'),
    headers: responseHeaders(route, status),
    content: { 'application/json': { schema } },
  };
}

function operation(route: RouteSpec, components: SchemaComponents): Json {
  const responses: Record<string, Json> = {};
  for (const status of route.successStatuses ?? [200]) responses[String(status)] = successResponse(route, status, components);
  for (const [status, codes] of errorsByStatus(route)) responses[String(status)] = errorResponse(route, status, codes, components);
  const access =
    route.permission === null
      ? 'No authentication; subject only to per-IP protection.'
      : `Requires an API key with the \`${route.permission}\` permission${route.financial ? ' and an account with completed identity verification' : ''}. Counts against the key's quota of 100 requests per 60 seconds.`;
  const body = route.request?.body;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: access,
    'x-permission': route.permission,
    security: route.permission === null ? [] : [{ [SECURITY_SCHEME]: [route.permission] }],
    parameters: parameters(route, components),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: components.name(`${pascal(route.operationId)}Request`, body) } } } } : {}),
    responses,
  };
}

function paths(routes: RouteSpec[], components: SchemaComponents): Record<string, Record<string, Json>> {
  const result: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = specPath(route.path);
    result[path] ??= {};
    result[path]![route.method.toLowerCase()] = operation(route, components);
  }
  return result;
}

const DESCRIPTION = (mcpUrl: string) =>
  [
    'REST API over JSON for Pix payments in Brazilian reais: charges, transfers, balance, transactions, disputes (MED), signed webhooks and public indicators.',
    '',
    '- Authentication: `Authorization: Bearer <API key>`; each operation names its permission (`x-permission`).',
    '- Quota: 100 requests per 60-second window per key, the window starting at the first call, shared by every authenticated route and the MCP server. Answers carry `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`; a 429 carries `Retry-After`.',
    '- Envelopes: success `{success: true, data, requestId}` (creations add `idempotent`, lists add `pagination`); error `{success: false, error: {code, message}, requestId}`. Decide by `error.code`; `message` is Portuguese text for humans.',
    '- Money is decimal reais (at most two decimal places, `multipleOf: 0.01` in the schemas: read it on the decimal text, not on a binary float); dates are ISO 8601 UTC with milliseconds.',
    '- A method a path does not serve answers 405 `method_not_allowed` with an `Allow` header listing the ones it does; an unknown path answers 404 `not_found`.',
    '- Only `status` `approved` means paid. Webhooks are signed with `X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.',
    `- A read-only MCP server (Streamable HTTP) with the same key, permissions and quota listens at \`${mcpUrl}\`.`,
  ].join('\n');

/** The OpenAPI 3.1 document of the catalogue's routes and events. */
export function buildOpenApiDocument(catalogue: ServiceCatalogue): Record<string, Json> {
  const components = new SchemaComponents();
  // Events first, so that the resources they carry are named before the routes that return them.
  const webhooks = Object.fromEntries(catalogue.events.map((event) => [event.name, { post: webhookOperation(event, components) }]));
  const documentPaths = paths(catalogue.routes, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pix Payments Service',
      version: SERVICE_VERSION,
      description: DESCRIPTION(catalogue.mcpUrl),
    },
    servers: [{ url: catalogue.baseUrl, description: 'Production (the only environment)' }],
    'x-mcp': { url: catalogue.mcpUrl, transport: 'streamable-http', tools: catalogue.mcpTools, authentication: 'Same bearer API key, permissions and quota as the REST API' },
    paths: documentPaths,
    webhooks,
    components: {
      schemas: components.schemas,
      headers: HEADERS,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'pix_live_<secret>',
          description:
            'API key with a fixed live prefix followed by the secret part, shown once at creation. Permissions attached to the key: `payments:write`, `transactions:read`, `transfers:write`, `balance:read`; the security requirement of each operation lists the one it needs. A key may be restricted to source IPs.',
        },
      },
    },
  };
}
