// The spec's envelopes around a route's `data`, as schemas: success (with `idempotent` on creations and
// `pagination` on lists), the error envelope and the 429 body. Routes declare only their `data`.
import Type, { type TSchema } from 'typebox';
import type { OperationSpec } from '../routing/operation.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../routing/pagination.js';

export const PaginationSchema = Type.Object(
  {
    page: Type.Integer({ minimum: 1, description: 'Current page, from 1' }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, description: `Page size, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})` }),
    total: Type.Integer({ minimum: 0, description: 'Number of items across all pages' }),
    pages: Type.Integer({ minimum: 0, description: 'Number of pages' }),
  },
  { additionalProperties: false, $id: 'Pagination' },
);

const RequestId = Type.String({ description: 'Identifier of this request; also in the X-Request-Id header' });

/** Responses that are not the JSON envelope (the OpenAPI document itself, llms.txt) are marked here. */
const rawMediaTypes = new WeakMap<TSchema, string>();

/** Marks a route's response schema as the whole body, served as `mediaType` instead of the envelope's `data`. */
export function rawResponse<T extends TSchema>(schema: T, mediaType: string): T {
  rawMediaTypes.set(schema, mediaType);
  return schema;
}

export function rawMediaType(schema: TSchema | undefined): string | undefined {
  return schema === undefined ? undefined : rawMediaTypes.get(schema);
}

/** Other media types a route also answers when the request's Accept asks for one, each with the schema of its body. */
const alternatives = new WeakMap<TSchema, Record<string, TSchema>>();

/** Marks a route's response schema as also served, whole, as `mediaType` (a statement as CSV). */
export function alsoServedAs<T extends TSchema>(schema: T, mediaType: string, body: TSchema): T {
  alternatives.set(schema, { ...alternatives.get(schema), [mediaType]: body });
  return schema;
}

export function alternativeMediaTypes(schema: TSchema | undefined): Record<string, TSchema> {
  return (schema && alternatives.get(schema)) ?? {};
}

/** True when the route answers a page of a list: it reads `page` (pagination.ts) and the envelope carries `pagination`. */
export function isPaginated(route: OperationSpec): boolean {
  return (route.request?.query as { properties?: Record<string, unknown> } | undefined)?.properties?.page !== undefined;
}

const Idempotent = Type.Boolean({ description: 'True when this answer repeats an operation created before with the same idempotency key' });

/** The success body of a route: `{success, data, requestId}`, plus `idempotent`/`warning` on creations and `pagination` on lists. */
export function successEnvelope(route: OperationSpec, data: TSchema): TSchema {
  return Type.Object(
    {
      success: Type.Literal(true),
      ...(route.idempotent === 'always'
        ? { idempotent: Idempotent, warning: Type.Optional(Type.String({ description: 'A non-blocking notice about the operation' })) }
        : route.idempotent === 'with-key'
          ? { idempotent: Type.Optional(Idempotent) }
          : {}),
      data,
      ...(isPaginated(route) ? { pagination: PaginationSchema } : {}),
      requestId: RequestId,
    },
    { additionalProperties: false },
  );
}

const ErrorDetail = (codes: string[]) =>
  Type.Object(
    {
      code: codes.length === 1 ? Type.Literal(codes[0]!) : Type.Enum(codes),
      message: Type.String({ description: 'Portuguese text for humans; may change. Decide by `code`.' }),
      param: Type.Optional(
        Type.String({
          description:
            'JSON pointer of the one field to blame (`/amount`, `/split/0/percent`, `/limit` for a query parameter, `/id` for a path parameter); absent when no single field is',
        }),
      ),
    },
    { additionalProperties: false },
  );

/** `{success: false, error: {code, message, param?}, requestId}` with `code` one of `codes`. */
export function errorEnvelope(codes: string[]): TSchema {
  return Type.Object({ success: Type.Literal(false), error: ErrorDetail(codes), requestId: RequestId }, { additionalProperties: false });
}

/** The 429 body: the error envelope plus the top-level `code` and `retryAfter` (seconds). */
export const RateLimitErrorSchema = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Literal('rate_limit_exceeded'),
    error: ErrorDetail(['rate_limit_exceeded']),
    retryAfter: Type.Integer({ minimum: 1, description: 'Seconds to wait; equal to the Retry-After header' }),
    requestId: RequestId,
  },
  { additionalProperties: false, $id: 'RateLimitError' },
);
