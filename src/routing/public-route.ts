// A route of the public API: an operation with the permission it asks of an API key. Every public path is
// declared once in the table of src/api/routes/; the Koa router, the permission checks, the request
// validation, GET /v1, the OpenAPI document, llms.txt and the MCP tools all read it.
import type { Permission } from '../accounts/permissions.js';
import type { OperationSpec } from './operation.js';

export interface RouteSpec extends OperationSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Koa path under /v1, e.g. `/transactions/:id`. */
  path: string;
  /** Null: public, no authentication. */
  permission: Permission | null;
  /** Financial routes also require completed identity verification (403 kyc_required). */
  financial: boolean;
  /**
   * Creation routes: a request whose idempotency key is bound to an operation joins it whatever the
   * account's state (src/api/guard.ts); this names the workflow that holds a key.
   */
  joinsBoundKey?: (accountId: string, key: string) => string;
}
