// A stack that reaches Temporal only through a TCP relay the test can cut and restore, with a
// connection to the stack's database; started before the enclosing describe block's tests, stopped after.
import { afterAll, beforeAll, inject } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { liveStack } from './live-stack.js';
import { freePort } from '../../src/runtime/free-port.js';
import type { Stack } from './stack.js';
import { tcpRelay, type TcpRelay } from './tcp-relay.js';

export interface OutageStack {
  readonly stack: Stack;
  readonly sql: Sql;
  readonly temporal: TcpRelay;
}

export function stackBehindTemporalRelay(env: Record<string, string>): OutageStack {
  let port = 0;
  let temporal: TcpRelay | undefined;

  // Registered before the stack's hooks: the relay opens before the stack starts and is cut after it stops.
  beforeAll(async () => {
    port = await freePort();
    temporal = tcpRelay(port, inject('temporalAddress'));
    await temporal.open();
  });
  afterAll(async () => {
    await temporal?.cut().catch(() => {});
  });
  const live = liveStack(() => ({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, ...env } }));

  return {
    get stack() {
      return live.stack;
    },
    get sql() {
      return live.sql;
    },
    get temporal() {
      if (!temporal) throw new Error('the relay is not open yet (use it inside tests)');
      return temporal;
    },
  };
}
