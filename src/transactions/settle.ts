// What the charge and transfer lifecycles share: reading a transaction's row by id, and settling a
// pending transaction once (status change, ledger posting and event in one PostgreSQL transaction).
import type { Sql, TxSql } from '../db/database.js';
import { recordTransactionEvent } from '../events/record.js';
import { post, type Entry } from '../ledger/post.js';
import { countStatusReached } from '../metrics/transactions.js';
import { toTransactionRow, type RawTransactionRow, type TransactionRow } from './row.js';
import { serializeTransaction, type Transaction } from './serialize.js';

export interface Settled {
  transaction: Transaction;
  /** Events recorded with the change, to hand to `dispatchEvent`. */
  eventIds: string[];
}

/** The ledger posting of a settlement; entries of zero are left out. */
export interface SettlementPosting {
  key: string;
  description: string;
  entries: Entry[];
}

export async function loadTransactionRow(sql: Sql | TxSql, transactionId: string, lock = false): Promise<TransactionRow> {
  const [raw] = lock
    ? await sql<RawTransactionRow[]>`select * from transactions where id = ${transactionId} for update`
    : await sql<RawTransactionRow[]>`select * from transactions where id = ${transactionId}`;
  if (!raw) throw new Error(`transaction ${transactionId} not found`);
  return toTransactionRow(raw);
}

/**
 * Moves a pending transaction to its final state with `change` and, in the same PostgreSQL
 * transaction, posts what `posting` says (when given) and records the event. A transaction already
 * final is returned as is with the event its final state recorded, so a retried activity
 * dispatches the same event.
 */
export async function settleOnce(
  sql: Sql,
  transactionId: string,
  change: (tx: TxSql) => Promise<RawTransactionRow[]>,
  posting?: (row: TransactionRow) => SettlementPosting,
): Promise<Settled> {
  let reached: TransactionRow | null = null;
  const settled = await sql.begin(async (tx) => {
    const current = await loadTransactionRow(tx, transactionId, true);
    if (current.status !== 'pending') {
      const events = await tx<{ id: string }[]>`
        select id from events where transaction_id = ${transactionId} and type = ${`transaction.${current.status}`}`;
      return { transaction: serializeTransaction(current), eventIds: events.map((e) => e.id) };
    }
    const [raw] = await change(tx);
    const row = toTransactionRow(raw!);
    if (posting) {
      const { key, description, entries } = posting(row);
      await post(tx, { key, transactionId: row.id, description, entries: entries.filter((entry) => entry.amount !== 0) });
    }
    const eventId = await recordTransactionEvent(tx, row);
    reached = row;
    return { transaction: serializeTransaction(row), eventIds: [eventId] };
  });
  if (reached) countStatusReached(reached);
  return settled;
}
