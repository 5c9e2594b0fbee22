// The MCP tools are the read routes of the public table: every authenticated GET becomes one tool,
// named after its operationId (`getBalance` → `get_balance`), with the route's path and query
// parameters as input and its success envelope as output. A call runs the route's own handler.
import { KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';
import type { Json } from '../openapi/components.js';
import { SchemaComponents } from '../openapi/components.js';
import { successEnvelope } from '../openapi/envelopes.js';
import { pathParameterNames, specPath } from '../openapi/paths.js';

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Json>; required?: string[] };
  outputSchema: { type: 'object'; [key: string]: unknown };
  route: RouteSpec;
}

const snakeCase = (operationId: string) => operationId.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Path and query parameters of a route as one JSON Schema object (path parameters required). */
function inputSchema(route: RouteSpec): ToolSpec['inputSchema'] {
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const part of [route.request?.params, route.request?.query]) {
    if (!part) continue;
    const json = JSON.parse(JSON.stringify(part)) as { properties?: Record<string, Json>; required?: string[] };
    Object.assign(properties, json.properties ?? {});
    if (part === route.request?.query) required.push(...(json.required ?? []));
  }
  for (const name of pathParameterNames(route.path)) {
    properties[name] ??= { type: 'string' };
    required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) };
}

/** Self-contained output schema: the route's success envelope with its named parts under `$defs`. */
function outputSchema(route: RouteSpec): ToolSpec['outputSchema'] {
  const components = new SchemaComponents();
  const envelope = components.inline(successEnvelope(route, route.response ?? ({} as never))) as Record<string, unknown>;
  const text = JSON.stringify({ ...envelope, $defs: components.schemas }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return JSON.parse(text) as ToolSpec['outputSchema'];
}

/** The read-only tools: one per authenticated GET route of `routes`. */
export function toolsFor(routes: RouteSpec[]): ToolSpec[] {
  return routes
    .filter((route) => route.method === 'GET' && route.permission !== null)
    .map((route) => ({
      name: snakeCase(route.operationId),
      description: `${route.summary} (GET /v1${specPath(route.path)}). Requires the \`${route.permission}\` permission; each call counts against the API key's quota of ${KEY_QUOTA_LIMIT} requests per ${KEY_QUOTA_WINDOW_SECONDS} seconds, shared with the REST API.`,
      inputSchema: inputSchema(route),
      outputSchema: outputSchema(route),
      route,
    }));
}
