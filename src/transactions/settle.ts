// What the charge and transfer lifecycles share: reading a transaction's row by id, the state their
// workflows keep of it, and settling a pending transaction once (status change, ledger posting and
// event in one PostgreSQL transaction).
import type { Fragment } from 'postgres';
import type { Sql, TxSql } from '../db/database.js';
import { recordTransactionEvent, recordTransactionEvents } from './events.js';
import { post, postAllNew, type Entry, type Posting } from '../ledger/post.js';
import { countStatusReached } from '../metrics/transactions.js';
import { toTransactionRow, type RawTransactionRow, type TransactionRow } from './row.js';
import type { TransactionState } from '../../contracts/transaction.contract.js';
import type { SplitShare } from '../charges/contract.js';

/** A settlement as it happened: the row after it, and the events recorded with the change. */
export interface Settlement {
  row: TransactionRow;
  /** Events recorded with the change, to hand to `dispatchEvent`. */
  eventIds: string[];
}

/** What a transaction's workflow knows of it (contracts/transaction.contract.ts). */
export const transactionState = (row: TransactionRow): TransactionState => ({ id: row.id, status: row.status });

/** The ledger posting of a settlement; entries of zero are left out. */
export interface SettlementPosting {
  key: string;
  description: string;
  entries: Entry[];
}

/** The ledger posting of `row`'s settlement, without its entries of zero. */
const ledgerPosting = (row: TransactionRow, settlement: SettlementPosting): Posting => ({
  key: settlement.key,
  transactionId: row.id,
  description: settlement.description,
  entries: settlement.entries.filter((entry) => entry.amount !== 0),
});

export async function loadTransactionRow(sql: Sql | TxSql, transactionId: string): Promise<TransactionRow> {
  const [raw] = await sql<RawTransactionRow[]>`select * from transactions where id = ${transactionId}`;
  if (!raw) throw new Error(`transaction ${transactionId} not found`);
  return toTransactionRow(raw);
}

/** The amounts of a settled row that its settlement decides: a due-date charge's, priced on what was paid. */
export interface Repriced {
  feeCents: number;
  netAmountCents: number;
  splitAmountCents: number;
  split: SplitShare[];
}

/** A row's amounts as its settlement decides them, or null when they stand as accepted. */
export type Repricing = (row: TransactionRow) => Repriced | null;

/** `rows` just settled, with the amounts `reprice` decides written (one statement for all that need it) before the event and the posting read them. */
async function repriced(tx: TxSql, rows: TransactionRow[], reprice: Repricing | undefined): Promise<TransactionRow[]> {
  const changes = rows.flatMap((row) => {
    const amounts = reprice?.(row);
    return amounts ? [{ id: row.id, ...amounts }] : [];
  });
  if (changes.length === 0) return rows;
  const raws = await tx<RawTransactionRow[]>`
    update transactions t
    set fee = p.fee, net_amount = p.net_amount, split_amount = p.split_amount, split = p.split::jsonb
    from unnest(${changes.map((c) => c.id)}::text[], ${changes.map((c) => c.feeCents)}::bigint[],
                ${changes.map((c) => c.netAmountCents)}::bigint[], ${changes.map((c) => c.splitAmountCents)}::bigint[],
                ${changes.map((c) => JSON.stringify(c.split))}::text[]) as p(id, fee, net_amount, split_amount, split)
    where t.id = p.id
    returning t.*`;
  const updated = new Map(raws.map((raw) => [raw.id, toTransactionRow(raw)]));
  return rows.map((row) => updated.get(row.id) ?? row);
}

/** The columns a settlement sets (besides `updated_at`), as a fragment of `update transactions set …`. */
export type SettlementChange = (tx: TxSql) => Fragment;

/**
 * Moves a pending transaction to its final state with `change` and, in the same PostgreSQL
 * transaction, posts what `posting` says (when given) and records the event. A transaction already
 * final is returned as is with the event its final state recorded, so a retried activity
 * dispatches the same event.
 */
export async function settleOnce(
  sql: Sql,
  transactionId: string,
  change: SettlementChange,
  posting?: (row: TransactionRow) => SettlementPosting,
  reprice?: Repricing,
): Promise<Settlement> {
  let reached: TransactionRow | null = null;
  const settled = await sql.begin(async (tx) => {
    // Only a pending row is changed; a concurrent settlement of the same transaction waits for this
    // row's lock and then finds it no longer pending.
    const [raw] = await tx<RawTransactionRow[]>`
      update transactions set ${change(tx)}, updated_at = now()
      where id = ${transactionId} and status = 'pending'
      returning *`;
    if (!raw) {
      const current = await loadTransactionRow(tx, transactionId);
      const events = await tx<{ id: string }[]>`
        select id from events where transaction_id = ${transactionId} and type = ${`transaction.${current.status}`}`;
      return { row: current, eventIds: events.map((e) => e.id) };
    }
    const [row] = (await repriced(tx, [toTransactionRow(raw)], reprice)) as [TransactionRow];
    // The event and the posting are sent together (one round trip to PostgreSQL), the posting last:
    // the ledger rows it locks are held only until the commit that follows.
    const settlement = posting?.(row);
    const [eventId] = await Promise.all([recordTransactionEvent(tx, row), settlement && post(tx, ledgerPosting(row, settlement))]);
    reached = row;
    return { row, eventIds: [eventId] };
  });
  if (reached) countStatusReached(reached);
  return settled;
}

/** `from` names the new values `p` (with a column `id`) for `set`, a fragment of `update transactions t set …`. */
export interface BatchSettlementChange {
  from: Fragment;
  set: Fragment;
}

/**
 * settleOnce for several transactions in one PostgreSQL transaction (a batch of src/db/group-commit.ts):
 * those still pending are locked in id order, changed by one statement, their events recorded by one
 * and their postings, which must credit only, written by one. Returns what settleOnce would, per id, or
 * undefined for an id it did not settle (not pending, or already in the batch): that one goes alone.
 */
export async function settleManyOnce(
  sql: Sql,
  transactionIds: string[],
  change: (tx: TxSql) => BatchSettlementChange,
  posting: (row: TransactionRow) => SettlementPosting,
  reprice?: Repricing,
): Promise<(Settlement | undefined)[]> {
  const rows = await sql.begin(async (tx) => {
    const { from, set } = change(tx);
    const raws = await tx<RawTransactionRow[]>`
      with locked as (
        select id from transactions where id = any(${transactionIds}::text[]) and status = 'pending' order by id for update
      )
      update transactions t set ${set}, updated_at = now()
      from ${from}
      where t.id = any(array(select id from locked)) and t.id = p.id
      returning t.*`;
    const changed = await repriced(tx, raws.map(toTransactionRow), reprice);
    const [eventIds] = await Promise.all([
      recordTransactionEvents(tx, changed),
      postAllNew(
        tx,
        changed.map((row) => ledgerPosting(row, posting(row))),
      ),
    ]);
    return new Map(changed.map((row, i) => [row.id, { row, eventId: eventIds[i]! }]));
  });
  for (const { row } of rows.values()) countStatusReached(row);
  return transactionIds.map((id, i) => {
    const settled = transactionIds.indexOf(id) === i ? rows.get(id) : undefined;
    return settled && { row: settled.row, eventIds: [settled.eventId] };
  });
}
