// Runs a route's own handler for a tool call: a Koa context for `GET /v1<path>?<query>` is made in
// memory (nothing goes over the network), the authenticated caller is put on it as the guard would,
// the route's request validation runs as on the REST API, and the envelope the handler produced is read back.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type Koa from 'koa';
import type { Caller } from '../accounts/account.js';
import type { RouteSpec } from '../routing/public-route.js';
import type { Deps } from '../runtime/deps.js';
import { invalidRequest } from '../http/errors.js';
import { newRequestId } from '../http/edge.js';
import { jsonPointer } from '../json/pointer.js';
import { validateRequest } from '../routing/validate-request.js';
import { pathParameterNames } from '../openapi/paths.js';

export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** Splits tool arguments into the route's path parameters and its query string. */
function requestFor(route: RouteSpec, args: Record<string, unknown>): { params: Record<string, string>; url: string } {
  const params: Record<string, string> = {};
  const query = new URLSearchParams();
  const pathNames = new Set(pathParameterNames(route.path));
  for (const name of pathNames) {
    const value = args[name];
    if (value === undefined || value === null || value === '') throw invalidRequest(`Informe o parâmetro ${name}`, jsonPointer(name));
    params[name] = String(value);
  }
  for (const [name, value] of Object.entries(args)) {
    if (!pathNames.has(name) && value !== undefined && value !== null) query.set(name, String(value));
  }
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name]!));
  const search = query.toString();
  return { params, url: `/v1${path}${search ? `?${search}` : ''}` };
}

const validators = new WeakMap<RouteSpec, Koa.Middleware>();

function validatorOf(route: RouteSpec, deps: Deps): Koa.Middleware {
  let validator = validators.get(route);
  if (!validator) validators.set(route, (validator = validateRequest(route, deps)));
  return validator;
}

/** Validates the arguments and calls `route.handler` as `caller`; an ApiError either throws propagates unchanged. */
export async function invokeRoute(
  app: Koa,
  deps: Deps,
  route: RouteSpec,
  caller: Caller,
  args: Record<string, unknown>,
): Promise<RouteAnswer> {
  const { params, url } = requestFor(route, args);
  const req = new IncomingMessage(new Socket());
  req.method = route.method;
  req.url = url;
  const ctx = app.createContext(req, new ServerResponse(req));
  ctx.params = params;
  ctx.state.requestId = newRequestId();
  ctx.state.route = `${route.method} /v1${route.path}`;
  ctx.state.caller = caller;
  await validatorOf(route, deps)(ctx, () => route.handler(ctx, deps));
  return { status: ctx.status, body: ctx.body };
}
