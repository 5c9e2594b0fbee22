// The one error type handlers throw. The edge turns it into the spec's envelope:
// {success: false, error: {code, message, param?}, requestId}. `message` is Portuguese text for humans;
// `param`, as in Stripe's errors, is the JSON pointer of the one field to blame (`/amount`,
// `/split/0/percent`, `/limit` for a query parameter, `/id` for a path parameter), absent when no
// single field is. The core throws no ApiError: its refusals (domain/refusal.ts) become one here
// (`answerOf`), with the status of the one table (refusal-status.ts).
import { invalidRequest as invalidRequestRefusal, operationRefused as operationRefusal, Refusal, unavailable } from '../domain/refusal.js';
import { databaseUnreachable } from '../db/unreachable.js';
import type { Logger } from '../runtime/log.js';
import { refusalStatus } from './refusal-status.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
    readonly param?: string,
  ) {
    super(message);
  }

  /** The same error, blamed on the field at `param` (a JSON pointer). */
  at(param: string | undefined): ApiError {
    return new ApiError(this.status, this.code, this.message, this.headers, this.extra, param);
  }
}

/** The `error` object of the envelope. */
export function errorDetail(err: ApiError): { code: string; message: string; param?: string } {
  return { code: err.code, message: err.message, ...(err.param === undefined ? {} : { param: err.param }) };
}

/** The core's refusal as the edge answers it: the table's status, a Retry-After when it says when to repeat. */
export function refusalAnswer(refusal: Refusal): ApiError {
  const { param, retryAfterSeconds } = refusal.details;
  const headers: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) };
  return new ApiError(refusalStatus(refusal), refusal.code, refusal.message, headers, {}, param);
}

/**
 * What the edge answers for an error thrown below it; null for a fault (the edge's 500). PostgreSQL
 * unreachable is a 503 (db/unreachable.ts).
 */
export function answerOf(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof Refusal) return refusalAnswer(err);
  if (databaseUnreachable(err) !== null) return refusalAnswer(unavailable(UNREACHABLE_MESSAGE, UNREACHABLE_RETRY_AFTER_S));
  return null;
}

/** Logs `err` when it is PostgreSQL being unreachable: the operator's one line for the 503 it is answered with. */
export function warnIfUnreachable(log: Logger, err: unknown, context: Record<string, unknown>): void {
  const cause = databaseUnreachable(err);
  if (cause !== null) log.warn({ ...context, cause }, 'PostgreSQL unreachable: answered 503');
}

const UNREACHABLE_MESSAGE = 'Serviço temporariamente indisponível. Repita a requisição em instantes com a mesma chave de idempotência.';
const UNREACHABLE_RETRY_AFTER_S = 1;

export const invalidRequest = (message: string, param?: string) => refusalAnswer(invalidRequestRefusal(message, param));
export const notFound = (message = 'Recurso não encontrado') => new ApiError(404, 'not_found', message);
export const operationRefused = (message: string) => refusalAnswer(operationRefusal(message));
export const internalError = () => new ApiError(500, 'internal_error', 'Erro interno. Tente novamente com a mesma chave de idempotência.');
