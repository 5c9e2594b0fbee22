// Checks real answers of the engine against the OpenAPI document it serves: status documented for the
// operation, media type, required headers, header values and the body against the response schema,
// with an independent JSON Schema validator (ajv, draft 2020-12, formats).
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS with a `default` property: the plugin under either interop.
const addFormats = formats.default;
import { http, type HttpResult, type Stack } from './stack.js';

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  permission: string | null;
  responses: Record<string, ResponseObject>;
}

interface ResponseObject {
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: object }>;
  content?: Record<string, { schema: object }>;
}

export interface Contract {
  document: any;
  operations: Operation[];
  /** Problems of `res` as an answer of the operation (empty when it conforms). */
  problems(operation: Operation, res: HttpResult): string[];
  /** Documented `[status, error code]` pairs of the operation (code null for successes). */
  documented(operation: Operation): Array<[number, string | null]>;
  /** Problems of a delivered webhook (headers and raw body) as the event the document describes under `webhooks`. */
  webhookProblems(delivery: { headers: Record<string, string | string[] | undefined>; rawBody: string }): string[];
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The contract of the document the stack serves: the public one, or another (the admin API's) at `url` with `token`. */
export async function loadContract(stack: Stack, source: { url?: string; token?: string } = {}): Promise<Contract> {
  const served = await http('GET', source.url ?? `${stack.baseUrl}/openapi.json`, { token: source.token });
  if (served.status !== 200) throw new Error(`openapi.json answered ${served.status}`);
  const document = JSON.parse(served.text);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        permission: op['x-permission'] ?? null,
        responses: op.responses,
      });
    }
  }

  const headerObject = (h: { $ref?: string; required?: boolean; schema?: object }) =>
    h.$ref ? { ...document.components.headers[h.$ref.split('/').pop()!], required: false } : h;

  function problems(operation: Operation, res: HttpResult): string[] {
    const found: string[] = [];
    const response = operation.responses[String(res.status)];
    if (!response) return [`status ${res.status} is not documented for ${operation.method} ${operation.path}`];
    for (const [name, declared] of Object.entries(response.headers ?? {})) {
      const header = headerObject(declared);
      const value = res.headers.get(name);
      if (value === null) {
        if (header.required) found.push(`required header ${name} missing`);
        continue;
      }
      const schema = header.schema as { type?: string } | undefined;
      const parsed = schema?.type === 'integer' ? Number(value) : value;
      if (schema && !ajv.validate(schema, parsed)) found.push(`header ${name}=${value}: ${ajv.errorsText()}`);
    }
    const documentedTypes = Object.keys(response.content ?? {});
    if (documentedTypes.length === 0) return found;
    const contentType = res.headers.get('content-type') ?? '';
    // An answer in another documented media type (asked by Accept) is checked against that one's schema.
    const mediaType = documentedTypes.find((type) => contentType.startsWith(type)) ?? documentedTypes[0]!;
    if (!contentType.startsWith(mediaType)) found.push(`content-type ${contentType}, documented ${documentedTypes.join(' or ')}`);
    const ref = `openapi.json#/${pointer('paths', operation.path, operation.method.toLowerCase(), 'responses', String(res.status), 'content', mediaType, 'schema')}`;
    const validate = ajv.getSchema(ref);
    if (!validate) return [...found, `no schema at ${ref}`];
    const body = mediaType === 'application/json' ? res.body : res.text;
    if (!validate(body)) found.push(`body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
    return found;
  }

  function documented(operation: Operation): Array<[number, string | null]> {
    const pairs: Array<[number, string | null]> = [];
    for (const [status, response] of Object.entries(operation.responses)) {
      const schema = (response.content?.['application/json']?.schema ?? {}) as any;
      const resolved = schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema;
      const code = resolved?.properties?.error?.properties?.code;
      if (!code) pairs.push([Number(status), null]);
      else for (const c of code.enum ?? [code.const]) pairs.push([Number(status), c]);
    }
    return pairs;
  }

  function webhookProblems(delivery: { headers: Record<string, string | string[] | undefined>; rawBody: string }): string[] {
    const event = String(delivery.headers['x-service-event']);
    const post = document.webhooks?.[event]?.post;
    if (!post) return [`event ${event} is not documented under webhooks`];
    const found: string[] = [];
    for (const parameter of post.parameters as Array<{ name: string; required?: boolean; schema: object }>) {
      const value = delivery.headers[parameter.name.toLowerCase()];
      if (value === undefined) {
        if (parameter.required) found.push(`${event}: header ${parameter.name} missing`);
      } else if (!ajv.validate(parameter.schema, value)) found.push(`${event}: header ${parameter.name}=${value}: ${ajv.errorsText()}`);
    }
    const validate = ajv.getSchema(
      `openapi.json#/${pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema')}`,
    )!;
    if (!validate(JSON.parse(delivery.rawBody))) found.push(`${event}: body: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
    return found;
  }

  return { document, operations, problems, documented, webhookProblems };
}
