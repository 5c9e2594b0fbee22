// The server span of one HTTP request (http/edge.ts): it continues the caller's W3C `traceparent`, is
// named by the route template once the router has matched it (never a raw path: no ids in span names).
import { SpanStatusCode } from '@opentelemetry/api';
import type Koa from 'koa';
import { inServerSpan } from './spans.js';

export function traceRequest(ctx: Koa.Context, handle: () => Promise<void>): Promise<void> {
  return inServerSpan(ctx.method, ctx.headers, async (span) => {
    try {
      await handle();
    } finally {
      if (span) {
        const route: string | undefined = ctx.state.route;
        span.updateName(route ?? `${ctx.method} unmatched`);
        span.setAttributes({
          'http.request.method': ctx.method,
          'http.response.status_code': ctx.status,
          ...(route ? { 'http.route': route } : {}),
        });
        if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
  });
}
