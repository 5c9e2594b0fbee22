// The OpenAPI 3.1 document of the public API, generated from the route table and the same typebox
// schemas that validate requests and shape responses. Nothing here repeats a path or a field.
import { KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { SchemaComponents, type Json } from './components.js';
import { CODE_MEANING, routeErrors } from './errors.js';
import { pathsOf, type ApiProfile } from './operations.js';
import type { ServiceCatalogue } from './summary.js';
import { webhookOperation } from './webhooks.js';

const SECURITY_SCHEME = 'apiKey';

/** The headers of every answer, shared with the admin document. */
export const SERVICE_HEADERS: Record<string, { description: string; schema: Json }> = {
  'X-Request-Id': { description: 'Identifier of the request, equal to `requestId` in the body.', schema: { type: 'string' } },
  'X-Service-Version': { description: `Version of the service contract (\`${SERVICE_VERSION}\` for v1).`, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying (at least 1).', schema: { type: 'integer', minimum: 1 } },
};

const HEADERS: Record<string, { description: string; schema: Json }> = {
  ...SERVICE_HEADERS,
  'RateLimit-Limit': { description: `Requests allowed in the window (${KEY_QUOTA_LIMIT} for the key quota).`, schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', minimum: 0 } },
};
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

// A Reference Object cannot carry `required`, so required headers are written inline.
const header = (name: string, required = false): Json =>
  required ? { ...HEADERS[name]!, required: true } : { $ref: `#/components/headers/${name}` };

const KEY_QUOTA = `${KEY_QUOTA_LIMIT} requests per ${KEY_QUOTA_WINDOW_SECONDS} seconds`;

/** Who may call a public route, which errors every one has, which headers its answers carry. */
const PUBLIC_PROFILE: ApiProfile<RouteSpec> = {
  security: (route) => (route.permission === null ? [] : [{ [SECURITY_SCHEME]: [route.permission] }]),
  access: (route) =>
    route.permission === null
      ? 'No authentication; subject only to per-IP protection.'
      : `Requires an API key with the \`${route.permission}\` permission${route.financial ? ' and an account with completed identity verification' : ''}. Counts against the key's quota of ${KEY_QUOTA}.`,
  errors: routeErrors,
  headers(route, status) {
    const headers: Record<string, Json> = {
      'X-Request-Id': header('X-Request-Id', true),
      'X-Service-Version': header('X-Service-Version', true),
    };
    if (route.permission !== null || status === 429) for (const name of RATE_LIMIT_HEADERS) headers[name] = header(name);
    if (status === 429) headers['Retry-After'] = header('Retry-After', true);
    // A 503 (the database unreachable, work that only waited its turn such as a QR image's decoder) says when to come back.
    if (status === 503) headers['Retry-After'] = header('Retry-After');
    return headers;
  },
  codeMeaning: CODE_MEANING,
  extensions: (route) => ({ 'x-permission': route.permission }),
};

const DESCRIPTION = (mcpUrl: string) =>
  [
    'REST API over JSON for Pix payments in Brazilian reais: charges, transfers, balance, transactions, disputes (MED), signed webhooks and public indicators.',
    '',
    '- Authentication: `Authorization: Bearer <API key>`; each operation names its permission (`x-permission`).',
    `- Quota: ${KEY_QUOTA_LIMIT} requests per ${KEY_QUOTA_WINDOW_SECONDS}-second window per key, the window starting at the first call, shared by every authenticated route and the MCP server. Answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; a 429 carries \`Retry-After\`.`,
    '- Envelopes: success `{success: true, data, requestId}` (creations add `idempotent`, lists add `pagination`); error `{success: false, error: {code, message, param?}, requestId}`. Decide by `error.code`; `message` is Portuguese text for humans; `param`, when one field is to blame, is its JSON pointer (`/amount`, `/split/0/percent`, `/limit`).',
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
  const documentPaths = pathsOf(catalogue.routes, PUBLIC_PROFILE, components);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pix Payments Service',
      version: SERVICE_VERSION,
      description: DESCRIPTION(catalogue.mcpUrl),
      // Under `info`, not at the top level: Redocly's build-docs fails on a top-level extension object.
      'x-mcp': {
        url: catalogue.mcpUrl,
        transport: 'streamable-http',
        tools: catalogue.mcpTools,
        authentication: 'Same bearer API key, permissions and quota as the REST API',
      },
    },
    servers: [{ url: catalogue.baseUrl, description: 'Production (the only environment)' }],
    paths: documentPaths,
    webhooks,
    components: {
      schemas: components.schemas,
      requestBodies: components.requestBodies,
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
