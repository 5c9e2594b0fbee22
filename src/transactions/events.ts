// A transaction's events: `transaction.<status>`, recorded with the change (events/record.ts).
import type { TxSql } from '../db/database.js';
import { recordEvent, recordEvents, type EventRecord } from '../events/record.js';
import type { TransactionRow, TransactionStatus } from './row.js';
import { serializeTransaction } from './serialize.js';

export const transactionEventId = (transactionId: string, status: TransactionStatus) => `evt_${transactionId}_${status}`;

const transactionEvent = (row: TransactionRow): EventRecord => ({
  id: transactionEventId(row.id, row.status),
  event: `transaction.${row.status}`,
  accountId: row.accountId,
  transactionId: row.id,
  data: serializeTransaction(row),
});

/** `transaction.<status>` with id `evt_<transaction id>_<status>` and the full Transaction as `data`. */
export function recordTransactionEvent(tx: TxSql, row: TransactionRow): Promise<string> {
  return recordEvent(tx, transactionEvent(row));
}

/** recordTransactionEvent for several rows in one statement; their ids in the rows' order. */
export async function recordTransactionEvents(tx: TxSql, rows: TransactionRow[]): Promise<string[]> {
  const records = rows.map(transactionEvent);
  await recordEvents(tx, records);
  return records.map((record) => record.id);
}
