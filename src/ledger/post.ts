// Double-entry postings, inside the caller's PostgreSQL transaction. A posting is identified by a
// unique key, so an activity retried by Temporal posts once; its entries always sum to zero.
import type { TxSql } from '../db/database.js';
import { ledgerPostings } from '../metrics/registry.js';
import { inSpan } from '../tracing/spans.js';
import { isCustomerKind, parseLedgerAccount } from './accounts.js';

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
    if (!Number.isSafeInteger(amount) || amount === 0) throw new InvalidPosting(`posting ${posting.key}: amount ${amount} is not a non-zero integer of centavos`);
    parseLedgerAccount(account);
    sum += amount;
    deltas.set(account, (deltas.get(account) ?? 0) + amount);
  }
  if (sum !== 0) throw new InvalidPosting(`posting ${posting.key}: entries sum to ${sum}, not zero`);
  return deltas;
}

/**
 * Posts once per key. Returns false (and changes nothing) when the key was already posted.
 * Throws InsufficientFunds, leaving the caller's transaction usable (a savepoint undoes the
 * partial work), when a customer balance would become negative.
 */
export function post(tx: TxSql, posting: Posting): Promise<boolean> {
  return inSpan('ledger.post', { 'ledger.entries': posting.entries.length }, async (span) => {
    const posted = await postOnce(tx, posting);
    span?.setAttribute('ledger.posted', posted);
    return posted;
  });
}

async function postOnce(tx: TxSql, posting: Posting): Promise<boolean> {
  const deltas = validate(posting);
  // Sorted, so that concurrent postings over the same accounts lock their rows in the same order.
  const ids = [...deltas.keys()].sort();
  const posted = await tx.savepoint(async (sp) => {
    const [created] = await sp<{ id: bigint }[]>`
      insert into ledger_postings (posting_key, transaction_id, description)
      values (${posting.key}, ${posting.transactionId ?? null}, ${posting.description})
      on conflict (posting_key) do nothing
      returning id`;
    if (!created) return false;

    const refs = ids.map(parseLedgerAccount);
    await sp`
      insert into ledger_accounts (id, owner_id, kind)
      select * from unnest(${refs.map((r) => r.id)}::text[], ${refs.map((r) => r.ownerId)}::text[], ${refs.map((r) => r.kind)}::text[])
      order by 1
      on conflict (id) do nothing`;
    const locked = await sp<{ id: string; balance: bigint }[]>`
      select id, balance from ledger_accounts where id = any(${ids}::text[]) order by id for update`;
    for (const row of locked) {
      const delta = deltas.get(row.id)!;
      if (Number(row.balance) + delta < 0 && isCustomerKind(parseLedgerAccount(row.id).kind)) {
        throw new InsufficientFunds(row.id, Number(row.balance), -delta);
      }
    }

    await sp`
      insert into ledger_entries (posting_id, ledger_account_id, amount)
      select ${String(created.id)}::bigint, account, amount
      from unnest(${posting.entries.map((e) => e.account)}::text[], ${posting.entries.map((e) => e.amount)}::bigint[]) as e(account, amount)`;
    await sp`
      update ledger_accounts a set balance = a.balance + d.delta, updated_at = now()
      from unnest(${ids}::text[], ${ids.map((id) => deltas.get(id)!)}::bigint[]) as d(id, delta)
      where a.id = d.id`;
    return true;
  });
  // Counted when written, inside the caller's transaction (commit is the caller's): one that rolls back
  // after its posting is counted again by its retry. No refusal does (they come before or inside the
  // savepoint), only a database failure: rare over-counting, never a posting missed.
  if (posted) ledgerPostings.inc();
  return posted;
}
