// Counting each answered request of the public and admin APIs (called by http/edge.ts).
import { httpRequestDuration, httpRequests } from './registry.js';

/** The route label of a request no route matched (unknown path, 405): raw paths would be unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

/** `route` is the template a router set (ctx.state.route, e.g. `GET /v1/transactions/:id`), or undefined. */
export function observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const labels = { method, route: route ?? UNMATCHED_ROUTE, status: String(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, seconds);
}
