// The event stream's order against the real PostgreSQL: an event whose transaction commits late is
// never passed over by a cursor that already moved past a later one (webhooks/event-stream.ts).
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { currentCursor, cursorOf, eventsAfter } from '../../src/webhooks/event-stream.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';

const live = liveStack();

const insertEvent = (sql: any, accountId: string, id: string) =>
  sql`insert into events (id, account_id, type, payload)
      values (${id}, ${accountId}, 'transaction.approved', ${sql.json({ id, event: 'transaction.approved', createdAt: 'x', data: {} })})`;

describe('eventsAfter', () => {
  it('holds back events behind a transaction still running, then gives both in order; nothing before the start cursor', async () => {
    const { account } = await createMerchant(live.stack);
    const sql = connect(live.stack.databaseUrl, { max: 4 });
    try {
      await insertEvent(sql, account.id, 'evt_before');
      const start = await currentCursor(sql);
      let releaseSlow!: () => void;
      let inserted!: () => void;
      const held = new Promise<void>((release) => (releaseSlow = release));
      const slowInserted = new Promise<void>((resolve) => (inserted = resolve));
      const slowCommitted = sql.begin(async (tx) => {
        await insertEvent(tx, account.id, 'evt_slow');
        inserted();
        await held;
      });
      await slowInserted;
      await insertEvent(sql, account.id, 'evt_fast');
      // evt_fast is committed, but a transaction begun before it (evt_slow's) still runs: nothing yet.
      expect(await eventsAfter(sql, account.id, start, 10)).toEqual([]);
      releaseSlow();
      await slowCommitted;
      const events = await eventsAfter(sql, account.id, start, 10);
      expect(events.map((e) => e.id)).toEqual(['evt_slow', 'evt_fast']);
      expect(await eventsAfter(sql, account.id, cursorOf(events[0]!), 10)).toEqual([events[1]]);
      expect(await eventsAfter(sql, account.id, cursorOf(events[1]!), 10)).toEqual([]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
