// autocannon posting one JSON body at fixed concurrency: a unique idempotency key per request and
// the bearer tokens in rotation (each key stays under its per-minute quota).
import autocannon from 'autocannon';
import type { Figures } from './measure.js';

export interface PostLoad {
  url: string;
  body: string;
  tokens: string[];
  seconds: number;
  connections: number;
  /** Part of every idempotency key, unique to the run. */
  run: string;
}

export function postLoad(load: PostLoad) {
  let sequence = 0;
  return autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.seconds,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        body: load.body,
        setupRequest: (request) => {
          sequence += 1;
          request.headers = {
            ...request.headers,
            'content-type': 'application/json',
            authorization: `Bearer ${load.tokens[sequence % load.tokens.length]}`,
            'idempotency-key': `bench-${load.run}-${sequence}`,
          };
          return request;
        },
      },
    ],
  });
}

export type LoadResult = Awaited<ReturnType<typeof postLoad>>;

/** The figures of a load whose success is a 201: a 202 (the engine's bounded wait ran out) counts as an error. */
export function createdFigures(label: string, result: LoadResult): Figures {
  const count = (status: number) => result.statusCodeStats[status]?.count ?? 0;
  return {
    label,
    requests: count(201),
    perSecond: count(201) / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + count(202),
  };
}
