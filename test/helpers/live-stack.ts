// A stack (see stack.ts) and a connection to its database for the tests of one file or describe
// block: started before their tests and stopped after them.
import { connect, type Sql } from '../../src/db/database.js';
import { startStack, type Stack, type StackOptions } from './stack.js';
import { suiteFixture } from './suite-fixture.js';

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
  return suiteFixture(
    'the stack',
    async () => {
      const stack = await startStack(typeof options === 'function' ? options() : options);
      return { stack, sql: connect(stack.databaseUrl, { max: 2 }) };
    },
    async ({ stack, sql }) => {
      await sql.end({ timeout: 5 });
      await stack.stop();
    },
  );
}
