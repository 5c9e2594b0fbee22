// A stack (see stack.ts) and a connection to its database for the tests of one file or describe
// block: started before their tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { startStack, type Stack, type StackOptions } from './stack.js';

export interface LiveStack {
  /** Set once the `beforeAll` hooks ran. */
  readonly stack: Stack;
  readonly sql: Sql;
}

/**
 * Registers the hooks that start the stack and connect to its database, and close both. `options` can
 * be a function, called at start, when they depend on what a `beforeAll` registered earlier made.
 */
export function liveStack(options: StackOptions | (() => StackOptions) = {}): LiveStack {
  let stack: Stack | undefined;
  let sql: Sql | undefined;

  beforeAll(async () => {
    stack = await startStack(typeof options === 'function' ? options() : options);
    sql = connect(stack.databaseUrl, { max: 2 });
  });

  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
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
  };
}
