// Something the tests of one file or describe block share: made in a `beforeAll`, disposed of in an
// `afterAll`, and read through the returned object inside the tests.
import { afterAll, beforeAll } from 'vitest';

/**
 * Registers the hooks that make the fixture and dispose of it. The returned object reads the made
 * fixture's properties; reading one before the `beforeAll` hook ran (outside a test) throws.
 */
export function suiteFixture<T extends object>(what: string, make: () => Promise<T>, dispose: (made: T) => Promise<void>): T {
  let made: T | undefined;

  beforeAll(async () => {
    made = await make();
  });

  afterAll(async () => {
    if (made) await dispose(made);
  });

  return new Proxy({} as T, {
    get(_target, property) {
      if (made === undefined) throw new Error(`${what} is not ready yet (use it inside tests)`);
      return Reflect.get(made, property);
    },
  });
}
