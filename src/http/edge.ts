// Plumbing shared by the public and the admin API: request ids, version header, envelopes,
// JSON body reading (koa-body) with clear 400s (bounds on its shape and its text: json-shape.ts; no key
// twice in one object: duplicate-keys.ts), a 404 for unknown routes, one access log line, the request
// metrics (metrics/http.ts) and span (tracing/http.ts) per request, and no stack trace or internal detail
// in any answer.
import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Logger } from '../runtime/log.js';
import { observeRequest } from '../metrics/http.js';
import { traceRequest } from '../tracing/http.js';
import { answerOf, type ApiError, errorDetail, internalError, invalidRequest, notFound, warnIfUnreachable } from './errors.js';
import { checkRawJson, checkJsonShape } from './json-shape.js';
import { checkDuplicateKeys } from './duplicate-keys.js';
import { jsonPointer } from '../json/pointer.js';
import { checkText, forbiddenCharacter } from './text-rule.js';

export const SERVICE_VERSION = '1.1.0';

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function ok(ctx: Koa.Context, data: unknown, status = 200, extra: Record<string, unknown> = {}): void {
  ctx.status = status;
  ctx.body = { success: true, ...extra, data, requestId: ctx.state.requestId };
}

export function errorBody(requestId: string, err: ApiError) {
  return { success: false, ...err.extra, error: errorDetail(err), requestId };
}

/**
 * Request id, version header, error envelope and access log: the outermost middleware of both apps.
 * `loggedPath` is what the access log says of a path (the admin app's masks the codec UI's secret).
 */
export function edge(log: Logger, loggedPath: (path: string) => string = (path) => path): Koa.Middleware {
  return (ctx, next) =>
    traceRequest(ctx, async () => {
      const started = process.hrtime.bigint();
      ctx.state.requestId = newRequestId();
      ctx.set('X-Request-Id', ctx.state.requestId);
      ctx.set('X-Service-Version', SERVICE_VERSION);
      try {
        checkPathAndQuery(ctx);
        await next();
        if (ctx.body === undefined && ctx.status === 404) throw notFound('Rota não encontrada');
      } catch (caught) {
        warnIfUnreachable(log, caught, { requestId: ctx.state.requestId, route: ctx.state.route });
        let err = answerOf(caught);
        if (err === null) {
          log.error({ err: caught, requestId: ctx.state.requestId, route: ctx.state.route }, 'unhandled error');
          err = internalError();
        }
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = errorBody(ctx.state.requestId, err);
      } finally {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        observeRequest(ctx.method, ctx.state.route, ctx.status, durationMs / 1000);
        log.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            route: ctx.state.route ?? null,
            path: loggedPath(ctx.path),
            status: ctx.status,
            durationMs: Math.round(durationMs * 100) / 100,
          },
          'request',
        );
      }
    });
}

// Text the router reads obeys the rule of bodies (text-rule.ts; PostgreSQL cannot even store U+0000 or
// a lone surrogate, and an activity given one would retry forever). A path segment with such a
// character is an identifier that cannot exist: 404 as for any unknown one. A query parameter: 400.
function checkPathAndQuery(ctx: Koa.Context): void {
  if (ctx.path.split('/').some((segment) => forbiddenCharacter(decodedSegment(segment)) !== null)) throw notFound('Recurso não encontrado');
  for (const [name, value] of Object.entries(ctx.query)) {
    checkText(name, 'Nome de parâmetro');
    for (const item of [value ?? []].flat()) checkText(item, `Parâmetro ${name}`, jsonPointer(name));
  }
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed escapes: the router answers those
  }
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const LARGE_BODY_CHARS = 64 * 1024;

/** The body reader's refusals (raw-body's `type`, inflation's 415) in the service's words; anything else is a body cut short. */
function readRefusal(err: Error & { type?: string; status?: number }, limitBytes: number): ApiError {
  if (err.type === 'entity.too.large') return invalidRequest(`O corpo excede o limite de ${limitBytes} bytes`);
  if (err.status === 415) return invalidRequest('Content-Encoding não suportado: envie o corpo sem compressão, gzip ou deflate');
  return invalidRequest('Corpo da requisição incompleto');
}

/**
 * A JSON body, read by koa-body (size limit, Content-Encoding) as text so that its nesting is bounded
 * before JSON.parse builds it (json-shape.ts); then parsed and checked for shape and text, and for a
 * key repeated in an object (duplicate-keys.ts). Anything else is a 400 that says why.
 */
export function jsonBody(limitBytes: number): Koa.Middleware {
  const readText = koaBody({
    json: false,
    urlencoded: false,
    multipart: false,
    text: true,
    textTypes: ['application/json'],
    textLimit: limitBytes,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH],
    onError: (err) => {
      throw readRefusal(err, limitBytes);
    },
  });
  return async (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    const hasBody = Number(ctx.get('content-length') || '0') > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) {
      ctx.request.body = undefined;
      return next();
    }
    if (!ctx.is('application/json')) throw invalidRequest('O corpo deve ser JSON (Content-Type: application/json)');
    await readText(ctx, async () => {});
    const raw = ctx.request.body as string;
    // A large body is scanned, parsed, walked and scanned for repeated keys in four turns of the event
    // loop, each a few ms at most for 1 MB, so that other requests are served between them rather than
    // after all of them.
    const between = raw.length > LARGE_BODY_CHARS ? () => setImmediate() : async () => {};
    checkRawJson(raw);
    await between();
    try {
      ctx.request.body = raw.length === 0 ? undefined : JSON.parse(raw);
    } catch {
      throw invalidRequest('JSON malformado no corpo da requisição');
    }
    await between();
    checkJsonShape(ctx.request.body);
    await between();
    checkDuplicateKeys(raw);
    return next();
  };
}
