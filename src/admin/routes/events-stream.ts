// GET /admin/events/stream?accountId=: an account's events as they happen, as server-sent events
// (`id:` the cursor, `event:` the type, `data:` the body a webhook delivery carries), for `pixctl listen`.
// A client that reconnects with `Last-Event-ID` misses nothing (webhooks/event-stream.ts). The stream
// polls PostgreSQL every quarter second, sends a comment every 15 s so that proxies keep it open, and
// ends when the admin server stops listening (a shutdown must not wait for a listener).
import { Readable } from 'node:stream';
import type { Server } from 'node:http';
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { getAccount } from '../../accounts/repository.js';
import { invalidRequest } from '../../domain/refusal.js';
import { rawResponse } from '../../openapi/envelopes.js';
import type { Deps } from '../../runtime/deps.js';
import { currentCursor, cursorOf, eventsAfter, parseCursor } from '../../webhooks/event-stream.js';
import { accountNotFound } from './accounts.js';
import { NOT_FOUND } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;
const BATCH = 500;

const StreamQuery = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64, description: 'A conta cujos eventos são transmitidos (acc_…)' }),
});

const EventStream = Type.String({
  description:
    'text/event-stream: para cada evento, `id:` (o cursor; reconecte com Last-Event-ID para continuar sem perder nenhum), `event:` (o tipo, como X-Service-Event) e `data:` (o corpo que uma entrega de webhook leva); comentários `: keepalive` a cada 15 s',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function* frames(deps: Deps, accountId: string, start: { xid: string; id: string }, open: () => boolean) {
  let cursor = start;
  let quietSince = Date.now();
  yield 'retry: 1000\n\n';
  while (open()) {
    const events = await eventsAfter(deps.sql, accountId, cursor, BATCH);
    for (const event of events) yield `id: ${event.cursor}\nevent: ${event.event}\ndata: ${event.body}\n\n`;
    if (events.length > 0) {
      cursor = cursorOf(events.at(-1)!);
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= KEEPALIVE_MS) {
      yield ': keepalive\n\n';
      quietSince = Date.now();
    }
    if (events.length < BATCH) await sleep(POLL_MS);
  }
}

async function stream(ctx: Koa.Context, deps: Deps) {
  const { accountId } = ctx.state.query as Static<typeof StreamQuery>;
  const lastEventId = ctx.get('last-event-id');
  const resumeFrom = lastEventId ? parseCursor(lastEventId) : null;
  if (lastEventId && !resumeFrom) throw invalidRequest('Last-Event-ID deve ser o id de um evento deste stream');
  const account = await getAccount(deps.sql, accountId);
  if (!account) throw accountNotFound();
  const start = resumeFrom ?? (await currentCursor(deps.sql));
  const server = (ctx.req.socket as { server?: Server }).server;
  let closed = false;
  ctx.req.on('close', () => (closed = true));
  const body = Readable.from(frames(deps, account.id, start, () => !closed && server?.listening !== false));
  body.on('error', (err) => deps.log.error({ err, accountId: account.id }, 'event stream failed'));
  ctx.req.setTimeout(0);
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  // Never reused: a stream that ends at shutdown takes its connection with it, so the closing server is not kept open.
  ctx.set('Connection', 'close');
  ctx.body = body;
}

export const EVENT_STREAM_ROUTES: AdminRoute[] = [
  {
    method: 'GET',
    path: '/events/stream',
    summary:
      'Os eventos de uma conta à medida que acontecem, como server-sent events (para pixctl listen); com Last-Event-ID continua de onde parou, sem perder nenhum',
    operationId: 'streamAccountEvents',
    request: { query: StreamQuery },
    response: rawResponse(EventStream, 'text/event-stream'),
    errors: [{ status: 400, code: 'invalid_request' }, NOT_FOUND],
    handler: stream,
  },
];
