// The public route table. Every public path is declared once here, with its permission and purpose;
// the Koa router, the permission checks, GET /v1, the OpenAPI document and llms.txt all read it.
import type Koa from 'koa';
import type { TSchema } from 'typebox';
import type { Deps } from '../deps.js';

export const PERMISSIONS = ['payments:write', 'transactions:read', 'transfers:write', 'balance:read'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface RouteSpec {
  method: 'GET' | 'POST';
  /** Koa path under /v1, e.g. `/transactions/:id`. */
  path: string;
  /** Null: public, no authentication. */
  permission: Permission | null;
  /** Financial routes also require completed identity verification (403 kyc_required). */
  financial: boolean;
  /** Creation routes: a request whose idempotency key is bound to an operation joins it whatever the account's state (guard.ts). */
  joinsBoundKey?: boolean;
  summary: string;
  operationId: string;
  /** Schemas that validate the request; the OpenAPI document is generated from the same objects. */
  request?: { body?: TSchema; query?: TSchema; params?: TSchema; headers?: TSchema };
  /** Schema of `data` in the success envelope. */
  response?: TSchema;
  /** Success statuses this route answers (e.g. [201, 200, 202] for creations). */
  successStatuses?: number[];
  /** Error codes this route can answer, beyond the authentication and rate-limit ones every guarded route has. */
  errors?: Array<{ status: number; code: string }>;
  handler: (ctx: Koa.Context, deps: Deps) => Promise<void>;
}
