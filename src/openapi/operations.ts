// The `paths` of an OpenAPI 3.1 document, generated from a route table (the public one or the admin
// one) and the same typebox schemas that validate requests and shape responses. What differs between
// the two APIs (who may call, which errors every route has, which headers answers carry) is the
// table's `ApiProfile`; nothing here repeats a path or a field.
import type { TSchema } from 'typebox';
import { closedRequestSchema } from '../http/request-schema.js';
import type { OperationSpec } from '../routing/operation.js';
import { SchemaComponents, type Json } from './components.js';
import { alternativeMediaTypes, errorEnvelope, RateLimitErrorSchema, rawMediaType, successEnvelope } from './envelopes.js';
import { errorsByStatus, STATUS_MEANING, type DocumentedError } from './errors.js';
import { pathParameterNames, specPath } from './paths.js';

export interface ApiProfile<R extends OperationSpec> {
  /** The operation's security requirement (`[]`: none). */
  security(route: R): Json[];
  /** The sentence on access that opens the operation's description. */
  access(route: R): string;
  /** Every error (status and code) the operation can answer, ordered. */
  errors(route: R): DocumentedError[];
  /** The headers of an answer with `status`. */
  headers(route: R, status: number): Record<string, Json>;
  /** The meaning of each error code, shown beside the codes of each response. */
  codeMeaning: Record<string, string>;
  /** Extension fields of the operation (`x-permission`). */
  extensions?(route: R): Record<string, Json>;
}

const SUCCESS_MEANING: Record<number, string> = {
  200: 'Success.',
  201: 'Created now.',
  202: 'Received and in automatic reconciliation; not a confirmation. Repeat with the same idempotency key.',
};
const REPEAT_MEANING = 'Idempotent repeat: the original operation is returned with `idempotent` true.';

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

function parameters(route: OperationSpec, components: SchemaComponents): Json[] {
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
  return [
    ...declaredPath,
    ...undeclaredPath,
    ...fromSchema('query', route.request?.query),
    ...fromSchema('header', route.request?.headers),
  ];
}

function successResponse<R extends OperationSpec>(route: R, status: number, profile: ApiProfile<R>, components: SchemaComponents): Json {
  const name = pascal(route.operationId);
  const mediaType = rawMediaType(route.response);
  const schema = mediaType
    ? components.inline(route.response!)
    : components.name(`${name}Response`, successEnvelope(route, route.response ?? ({} as TSchema)));
  const description = route.idempotent && status === 200 ? REPEAT_MEANING : (SUCCESS_MEANING[status] ?? 'Success.');
  const alternatives = Object.entries(alternativeMediaTypes(route.response)).map(([type, body]) => [
    type,
    { schema: components.inline(body) },
  ]);
  return {
    description,
    headers: profile.headers(route, status),
    content: { [mediaType ?? 'application/json']: { schema }, ...Object.fromEntries(alternatives) },
  };
}

function errorResponse<R extends OperationSpec>(
  route: R,
  status: number,
  codes: string[],
  profile: ApiProfile<R>,
  components: SchemaComponents,
): Json {
  const lines = codes.map((code) => `- \`${code}\`${profile.codeMeaning[code] ? `: ${profile.codeMeaning[code]}` : ''}`);
  const schema = status === 429 ? components.inline(RateLimitErrorSchema) : components.inline(errorEnvelope(codes));
  return {
    description: [STATUS_MEANING[status] ?? 'Error.', '', ...lines].join('\n'),
    headers: profile.headers(route, status),
    content: { 'application/json': { schema } },
  };
}

function operation<R extends OperationSpec>(route: R, profile: ApiProfile<R>, components: SchemaComponents): Json {
  const responses: Record<string, Json> = {};
  for (const status of route.successStatuses ?? [200]) responses[String(status)] = successResponse(route, status, profile, components);
  for (const [status, codes] of errorsByStatus(profile.errors(route)))
    responses[String(status)] = errorResponse(route, status, codes, profile, components);
  const body = route.request?.body;
  const requestBody =
    body && components.requestBody(`${pascal(route.operationId)}Request`, closedRequestSchema(body), !route.request?.optionalBody);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: profile.access(route),
    ...profile.extensions?.(route),
    security: profile.security(route),
    parameters: parameters(route, components),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The `paths` object of `routes`, their schemas collected in `components`. */
export function pathsOf<R extends OperationSpec>(
  routes: R[],
  profile: ApiProfile<R>,
  components: SchemaComponents,
): Record<string, Record<string, Json>> {
  const result: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const path = specPath(route.path);
    result[path] ??= {};
    result[path]![route.method.toLowerCase()] = operation(route, profile, components);
  }
  return result;
}
