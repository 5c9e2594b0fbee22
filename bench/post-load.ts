// autocannon posting one JSON body at fixed concurrency: a unique idempotency key per request and
// the bearer tokens in rotation (each key stays under its per-minute quota).
import autocannon from 'autocannon';

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
