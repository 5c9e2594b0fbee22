// What every route of a table declares, in the public API (public-route.ts adds permissions) and in
// the admin API alike: its path, the typebox schemas that validate its request (validate-request.ts)
// and its answers, and what the OpenAPI document says of it. Nothing is documented that is not validated.
import type Koa from 'koa';
import type { TSchema } from 'typebox';
import type { Deps } from '../runtime/deps.js';

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Koa path under the table's prefix, e.g. `/transactions/:id`. */
  path: string;
  summary: string;
  operationId: string;
  /**
   * Schemas that validate the request; the OpenAPI document is generated from the same objects.
   * Query schemas are read from text: integers, booleans and enums are coerced before validation.
   * `optionalBody`: a request without a body is validated as `{}`.
   */
  request?: { body?: TSchema; optionalBody?: boolean; query?: TSchema; params?: TSchema; headers?: TSchema };
  /**
   * Throws the refusal of a body its schema refuses, when the route's spec has its own codes and order
   * of checks for it (the creations' SPLIT_* codes, invalid_idempotency_key); the generic refusal otherwise.
   * `ctx` is the request's, once the guard identified the caller.
   */
  refuseBody?: (body: unknown, deps: Deps, ctx: Koa.Context) => Promise<void>;
  /** Schema of `data` in the success envelope. */
  response?: TSchema;
  /** Success statuses this route answers (e.g. [201, 200, 202] for creations). */
  successStatuses?: number[];
  /** The answer carries `idempotent`: always (creations) or only when an Idempotency-Key was sent. */
  idempotent?: 'always' | 'with-key';
  /** Error codes this route can answer, beyond the ones the table's guard and edge give every route. */
  errors?: Array<{ status: number; code: string }>;
  /** Runs once the request is validated: `ctx.state.query` holds the coerced query, `ctx.request.body` the body. */
  handler: (ctx: Koa.Context, deps: Deps) => Promise<void>;
}

/** An admin route: Koa path under /admin; every one is behind ADMIN_TOKEN. */
export type AdminRoute = OperationSpec;
