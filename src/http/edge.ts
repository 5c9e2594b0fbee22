// Plumbing shared by the public and the admin API: request ids, version header, envelopes,
// JSON body parsing with clear 400s, a 404 for unknown routes, one access log line per request,
// and no stack trace or internal detail in any answer.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../log.js';
import { ApiError, internalError, invalidRequest, notFound } from './errors.js';

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}

export const SERVICE_VERSION = '1.1.0';

export interface EdgeState {
  requestId: string;
  route?: string;
  rawBody?: string;
  [key: string]: unknown;
}

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function ok(ctx: Koa.Context, data: unknown, status = 200, extra: Record<string, unknown> = {}): void {
  ctx.status = status;
  ctx.body = { success: true, ...extra, data, requestId: ctx.state.requestId };
}

function errorBody(ctx: Koa.Context, err: ApiError) {
  return { success: false, ...err.extra, error: { code: err.code, message: err.message }, requestId: ctx.state.requestId };
}

/** Request id, version header, error envelope and access log: the outermost middleware of both apps. */
export function edge(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state.requestId = newRequestId();
    ctx.set('X-Request-Id', ctx.state.requestId);
    ctx.set('X-Service-Version', SERVICE_VERSION);
    try {
      refuseNulBytes(ctx);
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw notFound('Rota não encontrada');
    } catch (caught) {
      let err: ApiError;
      if (caught instanceof ApiError) err = caught;
      else {
        log.error({ err: caught, requestId: ctx.state.requestId, route: ctx.state.route }, 'unhandled error');
        err = internalError();
      }
      ctx.status = err.status;
      ctx.set(err.headers);
      ctx.body = errorBody(ctx, err);
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        { requestId: ctx.state.requestId, method: ctx.method, route: ctx.state.route ?? null, path: ctx.path, status: ctx.status, durationMs: Math.round(durationMs * 100) / 100 },
        'request',
      );
    }
  };
}

// PostgreSQL text cannot hold U+0000, and no identifier or text of this service contains it: refuse it at
// the door rather than let it reach a query (or, worse, an activity that would retry forever).
function refuseNulBytes(ctx: Koa.Context): void {
  if (/%00/i.test(ctx.path)) throw notFound('Recurso não encontrado');
  if (/%00/i.test(ctx.querystring)) throw invalidRequest('Parâmetro com caractere nulo');
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(containsNul);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v));
  return false;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Reads a JSON body (as raw text too), with a size limit; anything else is a 400 that says why. */
export function jsonBody(limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const length = Number(ctx.get('content-length') || '0');
    const hasBody = length > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = undefined;
      return next();
    }
    if (!ctx.is('application/json')) throw invalidRequest('O corpo deve ser JSON (Content-Type: application/json)');
    if (length > limitBytes) throw invalidRequest(`O corpo excede o limite de ${limitBytes} bytes`);
    const raw = await readLimited(ctx.req, limitBytes);
    ctx.state.rawBody = raw;
    try {
      ctx.request.body = raw.length === 0 ? undefined : JSON.parse(raw);
    } catch {
      throw invalidRequest('JSON malformado no corpo da requisição');
    }
    if (containsNul(ctx.request.body)) throw invalidRequest('Texto com caractere nulo (U+0000) no corpo da requisição');
    return next();
  };
}

function readLimited(stream: NodeJS.ReadableStream, limitBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        stream.removeAllListeners('data');
        stream.resume();
        reject(invalidRequest(`O corpo excede o limite de ${limitBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', () => reject(invalidRequest('Corpo da requisição incompleto')));
  });
}
