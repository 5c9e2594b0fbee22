// A stack that reaches Temporal only through a TCP relay the test can cut and restore, with a
// connection to the stack's database; started before the enclosing describe block's tests, stopped after.
import { afterAll, beforeAll, inject } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { freePort } from './ports.js';
import { startStack, type Stack } from './stack.js';
import { tcpRelay, type TcpRelay } from './tcp-relay.js';

export interface OutageStack {
  readonly stack: Stack;
  readonly sql: Sql;
  readonly temporal: TcpRelay;
}

export function stackBehindTemporalRelay(env: Record<string, string>): OutageStack {
  let stack: Stack | undefined;
  let sql: Sql | undefined;
  let temporal: TcpRelay | undefined;

  beforeAll(async () => {
    const port = await freePort();
    temporal = tcpRelay(port, inject('temporalAddress'));
    await temporal.open();
    stack = await startStack({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}`, ...env } });
    sql = connect(stack.databaseUrl, { max: 1 });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
    await temporal?.cut().catch(() => {});
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the stack is not started yet (use it inside tests)');
    return value;
  };
  return {
    get stack() {
      return started(stack);
    },
    get sql() {
      return started(sql);
    },
    get temporal() {
      return started(temporal);
    },
  };
}
