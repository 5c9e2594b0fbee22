// An account's statement (books.md, "Statements"): its available balance between two instants, entry
// by entry, read from the ledger. Each posting that moves the available balance is one entry, or
// several where the statement shows its parts apart (a paid charge: its amount, minus its fee, minus
// each split share); every entry carries the balance after it, so the opening balance plus the entries
// is the closing balance, always. The window is [from, to): consecutive statements chain.
import type { Fragment } from 'postgres';
import type { Sql } from '../db/database.js';
import { customerAccount, parseLedgerAccount } from './accounts.js';

export const STATEMENT_KINDS = [
  'charge',
  'fee',
  'split_in',
  'split_out',
  'transfer',
  'transfer_fee',
  'transfer_released',
  'refund',
  'refund_released',
  'med_retained',
  'med_released',
  'med_returned',
  'deposit',
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

interface PostingOnStatement {
  /** The entry of the account whose transaction it is. */
  kind: StatementKind;
  /** The transaction's fee, shown as an entry of its own (none when zero). */
  fee?: { kind: StatementKind; description: string };
  /** It credits other accounts (split shares): each is a `split_out` entry of the owner and a `split_in` of its recipient. */
  split?: true;
}

/**
 * What each posting that moves an available balance is on a statement, by its key's type and step
 * (`charge:txn_…:settle` is `charge:settle`). A posting of a key not listed here fails the statement:
 * a new money movement comes with its line.
 */
const POSTINGS: Record<string, PostingOnStatement> = {
  'charge:settle': { kind: 'charge', fee: { kind: 'fee', description: 'Tarifa da cobrança Pix' }, split: true },
  'transfer:reserve': { kind: 'transfer', fee: { kind: 'transfer_fee', description: 'Tarifa da transferência Pix' } },
  'transfer:release': { kind: 'transfer_released' },
  'refund:reserve': { kind: 'refund' },
  'refund:release': { kind: 'refund_released' },
  'med:retain': { kind: 'med_retained' },
  'med:release': { kind: 'med_released' },
  'med:return': { kind: 'med_returned' },
  'deposit:credit': { kind: 'deposit' },
};

const stepsWith = (part: keyof PostingOnStatement) => Object.keys(POSTINGS).filter((step) => POSTINGS[step]![part] !== undefined);
const FEE_STEPS = stepsWith('fee');
const SPLIT_STEPS = stepsWith('split');

/** [from, to): instants. */
export interface StatementWindow {
  from: Date;
  to: Date;
}

export interface StatementEntry {
  at: Date;
  kind: StatementKind;
  transactionId: string | null;
  description: string;
  /** Signed centavos. */
  amountCents: number;
  /** The available balance after this entry, centavos. */
  balanceAfterCents: number;
}

/** One entry of the account's available ledger account, with what its posting says of its parts. */
interface LedgerRow {
  id: bigint;
  at: Date;
  /** `at` as PostgreSQL writes it (microseconds), to resume after this row: sent back as text, since a timestamp parameter would be a Date, to the millisecond. */
  cursor: string;
  amount: bigint;
  postingKey: string;
  transactionId: string | null;
  description: string;
  /** The posting is of the account's own transaction (or of none). */
  own: boolean;
  /** The transaction's fee, when the posting shows it apart; else 0. */
  fee: bigint;
  /** Other accounts' available balances the posting credits, when it shows them apart. */
  shares: Array<{ account: string; cents: number }>;
}

const availableOf = (accountId: string) => customerAccount(accountId, 'available');

/**
 * The account's available ledger entries in the window, in order (time, then entry id), each with its
 * posting's parts. `after`/`limit`: one batch, resuming after a row, read from the index in order (the
 * entries before it are not read again). A charge whose split took all its net credits the account
 * nothing, yet is its charge: it comes as a row of 0 (its posting's key is the charge settlement's,
 * src/charges/lifecycle.ts).
 */
function ledgerRows(db: Sql, accountId: string, { from, to }: StatementWindow, batch?: { after: LedgerRow | undefined; limit: number }) {
  const available = availableOf(accountId);
  const after = (row: Fragment) =>
    batch?.after ? db`(${row}) > (${batch.after.cursor}::text::timestamptz, ${String(batch.after.id)}::bigint)` : db`true`;
  const limit = batch ? db`limit ${batch.limit}` : db``;
  return db<LedgerRow[]>`
    with moves as (
      (select e.id, e.created_at, e.amount, e.posting_id
       from ledger_entries e
       where e.ledger_account_id = ${available} and e.created_at >= ${from} and e.created_at < ${to} and ${after(db`e.created_at, e.id`)}
       order by e.created_at, e.id
       ${limit})
      union all
      select * from (
        select (select min(x.id) from ledger_entries x where x.posting_id = p.id) as id, p.created_at, 0::bigint as amount, p.id as posting_id
        from transactions t join ledger_postings p on p.posting_key = 'charge:' || t.id || ':settle'
        where t.account_id = ${accountId} and t.direction = 'in' and t.net_amount = 0 and p.created_at >= ${from} and p.created_at < ${to}
      ) z
      where ${after(db`z.created_at, z.id`)}
    )
    select m.id, m.created_at as at, m.created_at::text as cursor, m.amount, p.posting_key as "postingKey",
           p.transaction_id as "transactionId", p.description, o.own,
           case when o.own and o.step = any(${FEE_STEPS}::text[]) then t.fee else 0 end as fee,
           coalesce(s.shares, '[]') as shares
    from moves m
    join ledger_postings p on p.id = m.posting_id
    left join transactions t on t.id = p.transaction_id
    cross join lateral (select coalesce(t.account_id = ${accountId}, true) as own, regexp_replace(p.posting_key, ':.*:', ':') as step) o
    left join lateral (
      select json_agg(json_build_object('account', x.ledger_account_id, 'cents', x.amount) order by x.id) as shares
      from ledger_entries x
      where o.own and o.step = any(${SPLIT_STEPS}::text[]) and x.posting_id = p.id
        and x.ledger_account_id like '%:available' and x.ledger_account_id <> ${available}
    ) s on true
    order by m.created_at, m.id
    ${limit}`;
}

/** The available balance at `from`: the balance now, less what was posted since (one snapshot: one statement). */
function openingBalance(db: Sql, accountId: string, from: Date) {
  const available = availableOf(accountId);
  return db`(coalesce((select balance from ledger_balances where id = ${available}), 0)
             - coalesce((select sum(amount) from ledger_entries where ledger_account_id = ${available} and created_at >= ${from}), 0))::bigint`;
}

/** The entries a ledger row is on the statement, the first one starting from `balanceBefore`. */
function entriesOf(row: LedgerRow, balanceBefore: number): StatementEntry[] {
  const step = row.postingKey.replace(/:.*:/, ':');
  const posting = POSTINGS[step];
  if (!posting) throw new Error(`posting ${row.postingKey} has no kind on statements (src/ledger/statement.ts)`);
  const amountCents = Number(row.amount);
  const part = (kind: StatementKind, description: string, cents: number) => ({ kind, description, cents });
  let parts;
  if (!row.own) {
    if (!posting.split) throw new Error(`posting ${row.postingKey} moves the balance of an account whose transaction it is not`);
    parts = [part('split_in', `Split recebido: ${row.description}`, amountCents)];
  } else {
    const feeCents = Number(row.fee);
    const fee = feeCents !== 0 ? [part(posting.fee!.kind, posting.fee!.description, -feeCents)] : [];
    const splits = row.shares.map((share) => part('split_out', `Split para ${parseLedgerAccount(share.account).ownerId}`, -share.cents));
    const shown = [...fee, ...splits].reduce((sum, p) => sum + p.cents, 0);
    // What the posting moved, less the parts shown apart: a paid charge's amount, a transfer's amount without its fee.
    parts = [part(posting.kind, row.description, amountCents - shown), ...fee, ...splits];
  }
  let balance = balanceBefore;
  return parts.map(({ kind, description, cents }) => {
    balance += cents;
    return { at: row.at, kind, transactionId: row.transactionId, description, amountCents: cents, balanceAfterCents: balance };
  });
}

export type StatementLine =
  { line: 'opening'; balanceCents: number } | ({ line: 'entry' } & StatementEntry) | { line: 'closing'; balanceCents: number };

const BATCH_ROWS = 1000;

/**
 * The whole statement, line by line (opening, each entry, closing), read in batches, each resuming
 * after the last, so that a statement of any length is never held in memory, and no connection or
 * snapshot is held while a client takes its time. Each batch sees what is committed when it is read:
 * for a window in the past, that is the ledger as it stands; a window reaching the present shows the
 * postings committed by the time the reading passes their instant.
 */
export async function* statementLines(sql: Sql, accountId: string, window: StatementWindow): AsyncGenerator<StatementLine> {
  const [start] = await sql<{ opening: bigint }[]>`select ${openingBalance(sql, accountId, window.from)} as opening`;
  let balance = Number(start!.opening);
  yield { line: 'opening', balanceCents: balance };
  let after: LedgerRow | undefined;
  do {
    const rows = await ledgerRows(sql, accountId, window, { after, limit: BATCH_ROWS });
    for (const row of rows) {
      for (const entry of entriesOf(row, balance)) {
        balance = entry.balanceAfterCents;
        yield { line: 'entry', ...entry };
      }
    }
    after = rows.length === BATCH_ROWS ? rows[rows.length - 1] : undefined;
  } while (after);
  yield { line: 'closing', balanceCents: balance };
}

export interface StatementPage {
  openingCents: number;
  closingCents: number;
  /** Entries of the whole window. */
  total: number;
  entries: StatementEntry[];
}

/**
 * One page of the statement (`limit` entries from entry `(page - 1) × limit`), with the window's
 * opening and closing balances and its number of entries, in one statement (one snapshot). Only the
 * ledger rows the page shows are returned from PostgreSQL; the others are counted and summed there.
 */
export async function statementPage(
  sql: Sql,
  accountId: string,
  window: StatementWindow,
  { page, limit }: { page: number; limit: number },
): Promise<StatementPage> {
  const first = (page - 1) * limit;
  const rows = await sql<
    Array<Partial<LedgerRow> & { opening: bigint; total: bigint; moved: bigint; partsBefore: bigint | null; centsBefore: bigint | null }>
  >`
    with moved as (${ledgerRows(sql, accountId, window)}),
    counted as (
      select r.*, 1 + (r.fee <> 0)::int + json_array_length(r.shares) as parts from moved r
    ), running as (
      select c.*,
             sum(c.parts) over w - c.parts as "partsBefore",
             sum(c.amount) over w - c.amount as "centsBefore"
      from counted c
      window w as (order by c.at, c.id rows between unbounded preceding and current row)
    ), totals as (
      select coalesce(sum(parts), 0)::bigint as total, coalesce(sum(amount), 0)::bigint as moved from counted
    )
    select ${openingBalance(sql, accountId, window.from)} as opening, t.total, t.moved, r.*
    from totals t
    left join running r on r."partsBefore" + r.parts > ${first} and r."partsBefore" < ${first + limit}
    order by r.at, r.id`;
  const [head] = rows;
  const openingCents = Number(head!.opening);
  const entries = rows
    .filter((row) => row.id !== null && row.id !== undefined)
    .flatMap((row) => {
      const before = Number(row.partsBefore);
      return entriesOf(row as LedgerRow, openingCents + Number(row.centsBefore))
        .map((entry, i) => ({ entry, index: before + i }))
        .filter(({ index }) => index >= first && index < first + limit)
        .map(({ entry }) => entry);
    });
  return { openingCents, closingCents: openingCents + Number(head!.moved), total: Number(head!.total), entries };
}
