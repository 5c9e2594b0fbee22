// An account's events in the order their transactions became visible, from a cursor (`<xid>-<event id>`,
// the stream's Last-Event-ID): only events of transactions older than the oldest still running are read,
// so one committed late is never passed over (migration 145).
import type { Sql } from '../db/database.js';
import { deliveryBody, type EventPayload } from './attempt.js';

export interface StreamedEvent {
  cursor: string;
  id: string;
  event: string;
  /** The body a webhook delivery of the event carries, byte for byte. */
  body: string;
}

interface Cursor {
  xid: string;
  id: string;
}

const CURSOR = /^(\d{1,20})-([A-Za-z0-9_]{0,200})$/;

/** The cursor a Last-Event-ID names, or null when it is not one of the stream's. */
export function parseCursor(text: string): Cursor | null {
  const match = CURSOR.exec(text);
  return match ? { xid: match[1]!, id: match[2]! } : null;
}

/** Where a stream that names no cursor starts: the events of every transaction still running, and all that follow. */
export async function currentCursor(sql: Sql): Promise<Cursor> {
  const [row] = await sql<{ xmin: string }[]>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`;
  return { xid: row!.xmin, id: '' };
}

/** Up to `limit` final events of the account after `after`, oldest first. */
export async function eventsAfter(sql: Sql, accountId: string, after: Cursor, limit: number): Promise<StreamedEvent[]> {
  const rows = await sql<{ xid: string; id: string; type: string; payload: EventPayload }[]>`
    select xid::text as xid, id, type, payload from events
    where account_id = ${accountId} and xid is not null
      and xid < pg_snapshot_xmin(pg_current_snapshot())
      and (xid, id) > (${after.xid}::xid8, ${after.id})
    order by xid, id
    limit ${limit}`;
  return rows.map((row) => ({ cursor: `${row.xid}-${row.id}`, id: row.id, event: row.type, body: deliveryBody(row.payload) }));
}

export const cursorOf = (event: StreamedEvent): Cursor => parseCursor(event.cursor)!;
