// The driver on a connection PostgreSQL has dropped (scripts/patch-postgres.mjs): every query on it is
// rejected with a connection error instead of killing the process with an uncaught TypeError (a
// deferred write on the null socket) or waiting forever (a query sent between the reset and the close).
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_DATABASE_URL } from '../helpers/database.js';

const sql = postgres(ADMIN_DATABASE_URL, { max: 2 });
const killer = postgres(ADMIN_DATABASE_URL, { max: 1 });

afterAll(async () => {
  await Promise.all([sql.end({ timeout: 1 }), killer.end({ timeout: 1 })]);
});

describe('postgres.js on a connection whose backend was terminated', () => {
  it('rejects each later query on the reserved connection with a connection error, and the pool goes on serving', async () => {
    const reserved = await sql.reserve();
    const [{ pid }] = await reserved`select pg_backend_pid() as pid`;
    await killer`select pg_terminate_backend(${pid})`;
    for (let i = 0; i < 3; i += 1) {
      let outcome = 'answered';
      try {
        await reserved`select 1 as one`;
      } catch (err) {
        outcome = (err as { code?: string }).code ?? String(err);
      }
      expect(['CONNECTION_CLOSED', 'ECONNRESET'], `query ${i}`).toContain(outcome);
    }
    // The pool's other connection serves (the dead one is never released back into it).
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  });
});
