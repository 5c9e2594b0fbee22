// The shape both creation routes (POST /transactions, POST /transfers) share: a body, an idempotency
// key, and an answer that is 201 (created), 200 (repeated, idempotent) or 202 (still being accepted).
import type Koa from 'koa';
import type { TSchema } from 'typebox';
import type { Caller } from '../accounts/account.js';
import { IdempotencyKeyHeaderSchema } from '../transactions/idempotency.js';
import type { Deps } from '../runtime/deps.js';
import { ok } from '../http/edge.js';
import { isKeyBound, type CreationAnswer } from '../transactions/creation.js';
import { TransactionSchema } from '../transactions/schema.js';
import { serializeTransaction } from '../transactions/serialize.js';
import { takeQuota } from './rate-limit.js';
import type { Permission } from '../accounts/permissions.js';
import type { RouteSpec } from './public-route.js';

/** The status of each outcome of a creation. */
const OUTCOME_STATUS = { created: 201, repeated: 200, accepting: 202 } as const;

/** What every creation can answer besides its own errors. */
const CREATION_ERRORS: NonNullable<RouteSpec['errors']> = [
  { status: 400, code: 'invalid_request' },
  { status: 400, code: 'idempotency_key_required' },
  { status: 400, code: 'invalid_idempotency_key' },
  { status: 409, code: 'idempotency_conflict' },
  { status: 422, code: 'operation_refused' },
];

export interface CreationRoute {
  path: string;
  permission: Permission;
  summary: string;
  operationId: string;
  body: TSchema;
  /** Errors of this creation only, listed after the common ones of the same status. */
  errors: NonNullable<RouteSpec['errors']>;
  /** The creation's own refusal of a body its schema refuses (its spec codes, in its order of checks). */
  refuseBody(body: unknown, deps: Deps, ctx: Koa.Context): Promise<void>;
  create(deps: Deps, caller: Caller, body: unknown, headerKey: string | undefined, requestId: string): Promise<CreationAnswer>;
  /** The workflow that holds a key of this creation while it decides. */
  workflowId(accountId: string, key: string): string;
}

/** The key as sent (header first, else the body's externalId), unchecked: only looked up. */
function sentKey(headerKey: string | undefined, body: unknown): string | undefined {
  if (headerKey) return headerKey;
  const externalId = typeof body === 'object' && body !== null ? (body as { externalId?: unknown }).externalId : undefined;
  return typeof externalId === 'string' ? externalId : undefined;
}

export function creationRoute(route: CreationRoute): RouteSpec {
  return {
    method: 'POST',
    path: route.path,
    permission: route.permission,
    financial: true,
    joinsBoundKey: route.workflowId,
    summary: route.summary,
    operationId: route.operationId,
    request: { body: route.body, headers: IdempotencyKeyHeaderSchema },
    refuseBody: route.refuseBody,
    response: TransactionSchema,
    successStatuses: [201, 200, 202],
    idempotent: 'always',
    errors: [...CREATION_ERRORS, ...route.errors].sort((a, b) => a.status - b.status),
    async handler(ctx, deps) {
      const caller = ctx.state.caller as Caller;
      const answer = await route.create(
        deps,
        caller,
        ctx.request.body,
        ctx.get('idempotency-key') || undefined,
        ctx.state.requestId as string,
      );
      ok(ctx, serializeTransaction(answer.transaction), OUTCOME_STATUS[answer.outcome], { idempotent: answer.outcome === 'repeated' });
    },
  };
}

/**
 * In front of a creation's validation, once its body is read: when the account could not start an
 * operation now (guard.ts), only a request whose key is already bound may go on, to learn its outcome;
 * any other gets the account's refusal, whatever its body.
 */
export function boundKeyGate(workflowId: (accountId: string, key: string) => string, deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.state.accountRefusal) return next();
    const caller = ctx.state.caller as Caller;
    const key = sentKey(ctx.get('idempotency-key') || undefined, ctx.request.body);
    if (!key || !(await isKeyBound(deps, caller.account.id, key, workflowId(caller.account.id, key)))) {
      throw ctx.state.accountRefusal as Error;
    }
    ctx.state.accountRefusal = undefined;
    await takeQuota(ctx, deps, caller.keyId);
    return next();
  };
}
