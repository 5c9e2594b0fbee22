// A database fault at the worst moment for a handler: right after it committed. The test holds the row
// the handler is about to update; once the handler waits on it, the test locks the table the handler
// reads next and lets the update commit, so that read runs into the engine's statement_timeout.
import type { Sql } from '../../src/db/database.js';
import { eventually } from './eventually.js';

export interface AfterCommitFault {
  /** The table whose row the handler updates, and the row (`column = value`). */
  updated: { table: string; column: string; value: string };
  /** The table the handler reads after its commit: locked until the handler answered. */
  readAfter: string;
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Runs `request` with the fault in place; `sql` needs three free connections. */
export async function withReadsFailingAfterCommit<T>(sql: Sql, fault: AfterCommitFault, request: () => Promise<T>): Promise<T> {
  const { table, column, value } = fault.updated;
  const [rowHeld, rowReleased, tableHeld, tableReleased] = [gate(), gate(), gate(), gate()];
  const holdingRow = sql.begin(async (tx) => {
    await tx`select 1 from ${tx(table)} where ${tx(column)} = ${value} for update`;
    rowHeld.open();
    await rowReleased.opened;
  });
  await rowHeld.opened;
  const answer = request();
  await eventually(async () => {
    const waiting = await sql`
      select 1 from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ~* ${`^\\s*update\\s+${table}\\M`}`;
    return waiting.length > 0;
  }, 20_000);
  const holdingTable = sql.begin(async (tx) => {
    await tx`lock table ${tx(fault.readAfter)} in access exclusive mode`;
    tableHeld.open();
    await tableReleased.opened;
  });
  await tableHeld.opened;
  rowReleased.open();
  await holdingRow;
  try {
    return await answer;
  } finally {
    tableReleased.open();
    await holdingTable;
  }
}
