// The public route table. Every public path is declared once here, with its permission and purpose;
// the Koa router, the permission checks, GET /v1, the OpenAPI document and llms.txt all read it.
import type Koa from 'koa';
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
  summary: string;
  operationId: string;
  handler: (ctx: Koa.Context, deps: Deps) => Promise<void>;
}
