// The short self-descriptions generated from the route table: the endpoint list of GET /v1 and
// llms.txt (https://llmstxt.org: a title, a blockquote summary, notes, then sections of links).
import Type from 'typebox';
import { KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { specPath } from './paths.js';
import { METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS, METADATA_VALUE_MAX_LENGTH } from '../transactions/metadata.js';
import type { WebhookEvent } from './webhooks.js';

export const EndpointSummarySchema = Type.Object(
  {
    method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('DELETE')]),
    path: Type.String({ description: 'Path under the base address, in the spec style (`/transactions/{id}`)' }),
    permission: Type.Union([Type.String(), Type.Null()], { description: 'Permission the API key needs; null for public endpoints' }),
    purpose: Type.String(),
  },
  { additionalProperties: false, $id: 'EndpointSummary' },
);

export const ServiceSummarySchema = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    baseUrl: Type.String({ description: 'Base address of the API (ends with /v1)' }),
    documentation: Type.Object(
      {
        openapi: Type.String({ description: 'OpenAPI 3.1 document' }),
        reference: Type.String({ description: 'API reference page (HTML) rendered from the OpenAPI document' }),
        llms: Type.String({ description: 'Text summary for language models' }),
      },
      { additionalProperties: false },
    ),
    mcp: Type.Object(
      { url: Type.String(), transport: Type.Literal('streamable-http'), tools: Type.Array(Type.String()) },
      { additionalProperties: false, description: 'Read-only MCP server; same API key, permissions and quota' },
    ),
    endpoints: Type.Array(EndpointSummarySchema),
  },
  { additionalProperties: false, $id: 'ServiceSummary' },
);

export const SERVICE_NAME = 'Pix Payments Service';

/** Everything the self-description is generated from. */
export interface ServiceCatalogue {
  routes: RouteSpec[];
  /** Base address, ending with /v1. */
  baseUrl: string;
  mcpUrl: string;
  mcpTools: string[];
  events: WebhookEvent[];
}

export function endpointSummaries(routes: RouteSpec[]) {
  return routes.map((route) => ({
    method: route.method,
    path: specPath(route.path),
    permission: route.permission,
    purpose: route.summary,
  }));
}

export function serviceSummary({ routes, ...addresses }: ServiceCatalogue) {
  return {
    name: SERVICE_NAME,
    version: SERVICE_VERSION,
    baseUrl: addresses.baseUrl,
    documentation: {
      openapi: `${addresses.baseUrl}/openapi.json`,
      reference: `${addresses.baseUrl}/docs`,
      llms: `${addresses.baseUrl}/llms.txt`,
    },
    mcp: { url: addresses.mcpUrl, transport: 'streamable-http' as const, tools: addresses.mcpTools },
    endpoints: endpointSummaries(routes),
  };
}

/** A link to the operation inside the OpenAPI document (JSON pointer fragment). */
function operationLink(baseUrl: string, route: RouteSpec): string {
  const pointer = specPath(route.path).replace(/~/g, '~0').replace(/\//g, '~1');
  return `${baseUrl}/openapi.json#/paths/${encodeURIComponent(pointer)}/${route.method.toLowerCase()}`;
}

export function llmsTxt({ routes, baseUrl, mcpUrl, mcpTools, events }: ServiceCatalogue): string {
  const endpoint = (route: RouteSpec) =>
    `- [${route.method} ${specPath(route.path)}](${operationLink(baseUrl, route)}): ${route.summary}; ${route.permission === null ? 'public, no authentication' : `permission \`${route.permission}\``}`;
  return [
    `# ${SERVICE_NAME}`,
    '',
    `> REST API over JSON for Pix payments in Brazilian reais: Pix charges (QR code and copy-and-paste code), Pix transfers, balance, transactions, disputes (MED), signed webhooks and public indicators. Base address: ${baseUrl} (version ${SERVICE_VERSION}).`,
    '',
    '- Authenticate with `Authorization: Bearer <API key>`; each endpoint needs the permission listed below. Public endpoints need no key.',
    `- Quota: ${KEY_QUOTA_LIMIT} requests per ${KEY_QUOTA_WINDOW_SECONDS}-second window per key, shared with the MCP server; over it, 429 \`rate_limit_exceeded\` with \`Retry-After\`.`,
    '- Success: `{success: true, data, requestId}` (creations add `idempotent`, lists add `pagination`). Error: `{success: false, error: {code, message, param?}, requestId}`; decide by `error.code`; `param` is the JSON pointer of the field to blame.',
    '- Money is decimal reais with at most two decimal places; only `status` `approved` means paid. Creations need an `Idempotency-Key` header or an `externalId`; repeat with the same key after a timeout, a 5xx or a 202.',
    `- \`metadata\` (an object of at most ${METADATA_MAX_KEYS} keys of 1 to ${METADATA_KEY_MAX_LENGTH} characters, text values of at most ${METADATA_VALUE_MAX_LENGTH}) may be sent on charges, transfers and recurrences: it is stored, returned on the object and in its webhooks, and compared by the idempotency rules.`,
    "- A charge with `dueDate` (`YYYY-MM-DD`, America/Sao_Paulo) is a due-date charge (boleto-like, the standard's `cobv`): payable until `validityAfterDue` days (default 30) after the due date, with optional `fine`, `interest` (per day, month or year), up to three `discounts` and an `abatement`; CPF or CNPJ payer; no `coverFee`. Its transaction shows `amountDue` (what is due today while pending) and, once approved, `paidAmount`, on which `fee` and `netAmount` are computed.",
    '- Every charge has `checkoutUrl`, a page the service hosts for the payer (`GET /pay/{token}` beside the API, no authentication, in Portuguese): QR code, copy-and-paste code with a copy button, time left and a status that updates by itself; send it to whoever pays instead of rendering the code yourself. Every recurrence (Pix Automático) has one too, for its authorization: what the payer authorizes (frequency, amount or minimum, first due date, end, retry policy, the first payment of journey 3), the QR code and copy-and-paste code, the time left to authorize and a status that turns to authorized, rejected, expired, cancelled or completed by itself. Its token is random and secret: share it only with the payer.',
    `- Webhooks (${events.map((e) => `\`${e.name}\``).join(', ')}) are signed with \`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`; their payloads are under \`webhooks\` in the OpenAPI document.`,
    '',
    '## Endpoints',
    '',
    ...routes.map(endpoint),
    '',
    '## Docs',
    '',
    `- [OpenAPI 3.1 document](${baseUrl}/openapi.json): every path, parameter, schema, error code, rate-limit header and webhook payload`,
    `- [API reference](${baseUrl}/docs): the same document as an HTML page`,
    `- [Endpoint summary](${baseUrl}): the endpoint list as JSON`,
    '',
    '## Optional',
    '',
    `- [MCP server](${mcpUrl}): read-only tools over Streamable HTTP (${mcpTools.map((t) => `\`${t}\``).join(', ')}), same bearer key, permissions and quota as the REST API`,
    '',
  ].join('\n');
}
