// Double-entry postings, inside the caller's PostgreSQL transaction. A posting is identified by a
// unique key, so an activity retried by Temporal posts once; its entries always sum to zero.
import type { TxSql } from '../db/database.js';
import { ledgerPostings } from '../metrics/registry.js';
import { inSpan } from '../tracing/spans.js';
import { isCustomerKind, parseLedgerAccount } from './accounts.js';
import { lockedBalances } from './balance.js';

export interface Entry {
  account: string;
  /** Signed centavos: positive credits the account's balance, negative debits it. */
  amount: number;
}

export interface Posting {
  key: string;
  transactionId?: string | null;
  description: string;
  entries: Entry[];
}

/** A posting that is wrong by construction (a bug in the caller), never a business refusal. */
export class InvalidPosting extends Error {
  override readonly name = 'InvalidPosting';
}

/** A customer balance would go below zero: the caller maps it to a business refusal (422). */
export class InsufficientFunds extends Error {
  override readonly name = 'InsufficientFunds';
  constructor(
    readonly account: string,
    readonly balanceCents: number,
    readonly requiredCents: number,
  ) {
    super(`insufficient funds in ${account}: balance ${balanceCents}, required ${requiredCents}`);
  }
}

function validate(posting: Posting): Map<string, number> {
  if (!posting.key) throw new InvalidPosting('posting key is empty');
  if (posting.entries.length === 0) throw new InvalidPosting(`posting ${posting.key} has no entries`);
  const deltas = new Map<string, number>();
  let sum = 0;
  for (const { account, amount } of posting.entries) {
    if (!Number.isSafeInteger(amount) || amount === 0)
      throw new InvalidPosting(`posting ${posting.key}: amount ${amount} is not a non-zero integer of centavos`);
    parseLedgerAccount(account);
    sum += amount;
    deltas.set(account, (deltas.get(account) ?? 0) + amount);
  }
  if (sum !== 0) throw new InvalidPosting(`posting ${posting.key}: entries sum to ${sum}, not zero`);
  return deltas;
}

/**
 * Posts once per key. Returns false (and changes nothing) when the key was already posted.
 * Throws InsufficientFunds, leaving the caller's transaction usable (no statement failed), when a
 * customer balance would become negative.
 */
export function post(tx: TxSql, posting: Posting): Promise<boolean> {
  return inSpan(
    'ledger.post',
    () => ({ 'ledger.entries': posting.entries.length }),
    async (span) => {
      const posted = await postOnce(tx, posting);
      span?.setAttribute('ledger.posted', posted);
      return posted;
    },
  );
}

// A posting that debits a customer balance locks its rows (in id order, so that such postings cannot
// deadlock), moves their deltas in and checks them before it writes. Any other posting is written by
// one statement that waits on no balance row (see migration 100_ledger_balance_deltas.sql).
const customerDebited = (deltas: Map<string, number>): string | undefined =>
  [...deltas].find(([account, delta]) => delta < 0 && isCustomerKind(parseLedgerAccount(account).kind))?.[0];

async function postOnce(tx: TxSql, posting: Posting): Promise<boolean> {
  const deltas = validate(posting);
  const locking = customerDebited(deltas) !== undefined;
  if (locking) {
    const refusal = await uncoveredDebit(tx, deltas);
    // The balance may be short because this very posting was committed meanwhile (a retried activity).
    if (refusal) {
      if (await alreadyPosted(tx, posting.key)) return false;
      throw refusal;
    }
  }
  const posted = (await write(tx, [posting], deltas, locking ? 'locked' : 'unlocked')) === 1;
  // Counted when written, inside the caller's transaction (commit is the caller's): one that rolls back
  // after its posting is counted again by its retry. No refusal does (they come before the write), only
  // a database failure: rare over-counting, never a posting missed.
  if (posted) ledgerPostings.inc();
  return posted;
}

const sortedAccounts = (deltas: Map<string, number>) => [...deltas.keys()].sort().map(parseLedgerAccount);

/**
 * Creates the posting's missing rows and locks them all: the two statements are sent together (one
 * round trip), in this order (a query is sent in the order it is started). The first customer debit
 * its balance cannot cover.
 */
async function uncoveredDebit(tx: TxSql, deltas: Map<string, number>): Promise<InsufficientFunds | null> {
  const refs = sortedAccounts(deltas);
  const created = tx`
    insert into ledger_accounts (id, owner_id, kind)
    select * from unnest(${refs.map((r) => r.id)}::text[], ${refs.map((r) => r.ownerId)}::text[], ${refs.map((r) => r.kind)}::text[])
    order by 1
    on conflict (id) do nothing`.execute();
  const [, balances] = await Promise.all([
    created,
    lockedBalances(
      tx,
      refs.map((r) => r.id),
    ),
  ]);
  for (const [account, balance] of balances) {
    const delta = deltas.get(account)!;
    if (balance + delta < 0 && isCustomerKind(parseLedgerAccount(account).kind)) return new InsufficientFunds(account, balance, -delta);
  }
  return null;
}

async function alreadyPosted(tx: TxSql, key: string): Promise<boolean> {
  const [found] = await tx`select 1 from ledger_postings where posting_key = ${key}`;
  return found !== undefined;
}

/**
 * Posts several postings at once (a batch of settlements, src/db/group-commit.ts), none debiting a
 * customer balance, in one statement. Throws, without writing anything, when one of their keys is
 * already posted: the caller's transaction must then roll back (its batch is then run one by one).
 */
export function postAllNew(tx: TxSql, postings: Posting[]): Promise<void> {
  return inSpan(
    'ledger.post',
    () => ({ 'ledger.postings': postings.length, 'ledger.entries': postings.reduce((n, p) => n + p.entries.length, 0) }),
    async () => {
      const deltas = new Map<string, number>();
      for (const posting of postings) {
        const own = validate(posting);
        const debited = customerDebited(own);
        if (debited !== undefined) throw new InvalidPosting(`posting ${posting.key} debits ${debited}: post it alone`);
        for (const [account, delta] of own) deltas.set(account, (deltas.get(account) ?? 0) + delta);
      }
      const posted = await write(tx, postings, deltas, 'unlocked');
      if (posted !== postings.length) throw new Error(`${postings.length - posted} of ${postings.length} postings were already posted`);
      ledgerPostings.inc(posted);
    },
  );
}

/**
 * The postings, their entries and their balances (`deltas`: the sum of every posting's entries per
 * account) in one statement; returns how many postings it wrote. When a key is already posted (a
 * concurrent insert of the key waits for the other transaction and then finds it), no entry and no
 * balance is written, only the other postings' rows: the caller then posts nothing (one posting) or
 * rolls back (several). `locked`: the rows are this transaction's
 * already, their deltas moved in; they are updated. `unlocked`: each existing row whose lock is free is
 * locked, gets its deltas and the amount; a row locked by another transaction gets a delta instead; a
 * missing row is created with the amount.
 */
async function write(tx: TxSql, postings: Posting[], deltas: Map<string, number>, rows: 'locked' | 'unlocked'): Promise<number> {
  const refs = sortedAccounts(deltas);
  const ids = refs.map((r) => r.id);
  // Rows are found by `id = any(ids)` (their primary key), never by a join the planner could turn into
  // a scan of every account.
  const changes = tx`
    select d.* from unnest(${ids}::text[], ${refs.map((r) => r.ownerId)}::text[], ${refs.map((r) => r.kind)}::text[],
                           ${refs.map((r) => deltas.get(r.id)!)}::bigint[]) as d(id, owner_id, kind, delta)
    where (select count(*) from posting) = ${postings.length}`;
  const balances =
    rows === 'locked'
      ? tx`
    updated as (
      update ledger_accounts a set balance = a.balance + c.delta, updated_at = now()
      from changes c where a.id = any(${ids}::text[]) and a.id = c.id
    )`
      : tx`
    present as (
      select id from ledger_accounts where id = any(${ids}::text[])
    ), locked as (
      select id from ledger_accounts where id = any(${ids}::text[]) and (select count(*) from posting) = ${postings.length}
      order by id for no key update skip locked
    ), moved as (
      delete from ledger_balance_deltas where ledger_account_id = any(array(select id from locked))
      returning ledger_account_id as id, amount
    ), updated as (
      update ledger_accounts a
      set balance = a.balance + c.delta + coalesce((select sum(m.amount) from moved m where m.id = a.id), 0), updated_at = now()
      from changes c where a.id = any(array(select id from locked)) and a.id = c.id
    ), deferred as (
      insert into ledger_balance_deltas (ledger_account_id, amount)
      select id, delta from changes where id in (select id from present) and id not in (select id from locked) and delta <> 0
    ), created as (
      insert into ledger_accounts as a (id, owner_id, kind, balance)
      select id, owner_id, kind, delta from changes where id not in (select id from present)
      order by id
      on conflict (id) do update set balance = a.balance + excluded.balance, updated_at = now()
    )`;
  const entries = postings.flatMap((posting) => posting.entries.map((entry) => ({ key: posting.key, ...entry })));
  const written = await tx<{ id: bigint }[]>`
    with posting as (
      insert into ledger_postings (posting_key, transaction_id, description)
      select * from unnest(${postings.map((p) => p.key)}::text[], ${postings.map((p) => p.transactionId ?? null)}::text[], ${postings.map((p) => p.description)}::text[])
      on conflict (posting_key) do nothing
      returning id, posting_key
    ), entries as (
      insert into ledger_entries (posting_id, ledger_account_id, amount)
      select posting.id, e.account, e.amount
      from posting join unnest(${entries.map((e) => e.key)}::text[], ${entries.map((e) => e.account)}::text[], ${entries.map((e) => e.amount)}::bigint[])
                        with ordinality as e(posting_key, account, amount, n) on e.posting_key = posting.posting_key
      where (select count(*) from posting) = ${postings.length}
      -- Entry ids follow the postings' entries in their order, whatever join the planner picks.
      order by e.n
    ), changes as (${changes}), ${balances}
    select id from posting`;
  return written.length;
}
