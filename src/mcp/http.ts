// The MCP endpoint on the public API port (POST /mcp, Streamable HTTP, stateless, JSON answers).
// Every request is authenticated with the API key like a REST call (401/403 as HTTP statuses) before
// its body is read, so that an unauthenticated body costs the process nothing; then it takes one unit
// of the key's quota before it runs, whatever its method (initialize, ping, tools/list, tools/call,
// notifications), so REST and MCP share one budget; a spent quota is an HTTP 429 with Retry-After and
// the RateLimit headers, as on the REST API. Refusals are JSON-RPC error responses whose `data` carries
// the service's error code (and whose id is null when the body was not read).
import Router from '@koa/router';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Caller } from '../accounts/account.js';
import { authenticateRequest } from '../routing/auth.js';
import { consumeQuota, rateLimitHeaders, type Quota } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';
import type { Deps } from '../runtime/deps.js';
import { answerOf, ApiError, warnIfUnreachable } from '../http/errors.js';
import { MCP_PATH } from '../openapi/paths.js';
import { refuseInvalidParams } from './params.js';
import { createMcpServer } from './server.js';
import { toolsFor, type ToolSpec } from './tools.js';

/** JSON-RPC error code of a request the service refused (authentication, quota). */
export const REFUSED = -32010;

interface JsonRpcMessage {
  id?: string | number | null;
  method?: string;
}

const messagesOf = (body: unknown): JsonRpcMessage[] =>
  (Array.isArray(body) ? body : [body]).filter((m): m is JsonRpcMessage => m !== null && typeof m === 'object');

/**
 * One quota unit per HTTP request, as a REST call takes, and one per further request of a JSON-RPC
 * batch, so that batching buys nothing. Throws the 429.
 */
async function chargeRequest(deps: Deps, caller: Caller, body: unknown): Promise<Quota> {
  const requests = messagesOf(body).filter((m) => m.method !== undefined && m.id !== undefined).length;
  let quota = await consumeQuota(deps, caller.keyId);
  for (let unit = 1; unit < requests; unit += 1) quota = await consumeQuota(deps, caller.keyId);
  return quota;
}

function refuse(ctx: Koa.Context, err: ApiError, body: unknown): void {
  const id = messagesOf(body).find((m) => m.id !== undefined)?.id ?? null;
  ctx.status = err.status;
  ctx.set(err.headers);
  ctx.body = {
    jsonrpc: '2.0',
    id,
    error: {
      code: REFUSED,
      message: err.message,
      data: { status: err.status, code: err.code, ...err.extra, requestId: ctx.state.requestId },
    },
  };
}

async function serve(ctx: Koa.Context, deps: Deps, tools: Map<string, ToolSpec>, caller: Caller): Promise<void> {
  const server = createMcpServer(ctx.app, deps, tools, caller);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  refuseInvalidParams(transport);
  ctx.respond = false;
  await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
}

/** The caller (`ctx.state.caller`), authenticated before the body is read: a refusal here answers id null. */
function authenticate(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.route = `POST ${MCP_PATH}`;
    try {
      ctx.state.caller = await authenticateRequest(deps, { authorization: ctx.get('authorization') || undefined, ip: ctx.ip });
    } catch (err) {
      warnIfUnreachable(deps.log, err, { route: ctx.state.route });
      const answer = answerOf(err);
      if (answer) return refuse(ctx, answer, undefined);
      throw err;
    }
    return next();
  };
}

export function mcpRouter(deps: Deps, routes: RouteSpec[], jsonBody: Koa.Middleware): Router {
  const tools = new Map(toolsFor(routes).map((tool) => [tool.name, tool]));
  const router = new Router();
  router.post(MCP_PATH, authenticate(deps), jsonBody, async (ctx) => {
    const caller = ctx.state.caller as Caller;
    try {
      ctx.set(rateLimitHeaders(await chargeRequest(deps, caller, ctx.request.body)));
    } catch (err) {
      warnIfUnreachable(deps.log, err, { route: ctx.state.route });
      const answer = answerOf(err);
      if (answer) return refuse(ctx, answer, ctx.request.body);
      throw err;
    }
    await serve(ctx, deps, tools, caller);
  });
  // Stateless server: no server-initiated stream (GET) and no session to end (DELETE).
  router.all(MCP_PATH, (ctx) => {
    ctx.state.route = `${ctx.method} ${MCP_PATH}`;
    throw new ApiError(405, 'method_not_allowed', 'Use POST neste endereço (MCP Streamable HTTP sem sessão)', { Allow: 'POST' });
  });
  return router;
}
