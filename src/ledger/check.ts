// Proves the ledger's invariants over the whole database: used by tests after every money-moving
// scenario, by operators (GET /admin/ledger/check, `pixctl ledger check`) and by `npm run chaos`.
// A non-empty list of violations is an incident. Besides the ledger's own invariants, each route's
// suspense must equal what its reconciliation items hold.
import type { Sql, TxSql } from '../db/database.js';
import { recordLedgerCheck } from '../metrics/ledger.js';
import { CUSTOMER_KINDS } from './accounts.js';

export type LedgerViolation =
  | { kind: 'unbalanced_posting'; postingKey: string; sumCents: number }
  | { kind: 'balance_mismatch'; account: string; balanceCents: number; entriesCents: number }
  | { kind: 'negative_customer_balance'; account: string; balanceCents: number }
  | { kind: 'suspense_mismatch'; account: string; balanceCents: number; heldCents: number };

export interface LedgerReport {
  ok: boolean;
  checkedAt: string;
  /** Postings examined (all of them, in one snapshot). */
  postings: number;
  violations: LedgerViolation[];
}

async function violationsIn(tx: TxSql): Promise<LedgerViolation[]> {
  const unbalanced = await tx<{ postingKey: string; sum: bigint }[]>`
    select p.posting_key as "postingKey", coalesce(sum(e.amount), 0) as sum
    from ledger_postings p left join ledger_entries e on e.posting_id = p.id
    group by p.id having coalesce(sum(e.amount), 0) <> 0 or count(e.id) = 0
    order by p.id`;
  // A balance is its row's plus its deltas (ledger_balances, migration 100_ledger_balance_deltas.sql).
  // Full join: entries of an account without a row (no foreign key holds them) are a balance of zero.
  const mismatched = await tx<{ account: string; balance: bigint; entries: bigint }[]>`
    select coalesce(b.id, e.ledger_account_id) as account, coalesce(b.balance, 0) as balance, coalesce(e.sum, 0) as entries
    from ledger_balances b
    full join (select ledger_account_id, sum(amount) as sum from ledger_entries group by ledger_account_id) e on e.ledger_account_id = b.id
    where coalesce(b.balance, 0) <> coalesce(e.sum, 0)
    order by 1`;
  const negative = await tx<{ account: string; balance: bigint }[]>`
    select id as account, balance from ledger_balances
    where kind = any(${[...CUSTOMER_KINDS]}::text[]) and balance < 0 order by id`;
  // A route's suspense holds exactly what its reconciliation items hold (migration 150_reconciliation.sql).
  const suspense = await tx<{ account: string; balance: bigint; held: bigint }[]>`
    select coalesce(b.id, 'platform:suspense:' || i.route) as account, coalesce(b.balance, 0) as balance, coalesce(i.held, 0) as held
    from (select id, balance from ledger_balances where kind = 'suspense') b
    full join (select route, sum(held_amount) as held from reconciliation_items where held_amount > 0 group by route) i
      on b.id = 'platform:suspense:' || i.route
    where coalesce(b.balance, 0) <> coalesce(i.held, 0)
    order by 1`;
  return [
    ...unbalanced.map((r) => ({ kind: 'unbalanced_posting' as const, postingKey: r.postingKey, sumCents: Number(r.sum) })),
    ...mismatched.map((r) => ({
      kind: 'balance_mismatch' as const,
      account: r.account,
      balanceCents: Number(r.balance),
      entriesCents: Number(r.entries),
    })),
    ...negative.map((r) => ({ kind: 'negative_customer_balance' as const, account: r.account, balanceCents: Number(r.balance) })),
    ...suspense.map((r) => ({
      kind: 'suspense_mismatch' as const,
      account: r.account,
      balanceCents: Number(r.balance),
      heldCents: Number(r.held),
    })),
  ];
}

// Repeatable read: every query sees the same snapshot, so postings committing meanwhile cannot look
// like a mismatch.
const snapshot = <T>(sql: Sql, work: (tx: TxSql) => Promise<T>): Promise<T> =>
  sql.begin('isolation level repeatable read read only', work) as Promise<T>;

export function checkLedger(sql: Sql): Promise<LedgerViolation[]> {
  return snapshot(sql, violationsIn);
}

export async function ledgerReport(sql: Sql): Promise<LedgerReport> {
  const report = await snapshot(sql, async (tx) => {
    const [counted] = await tx<{ postings: bigint }[]>`select count(*) as postings from ledger_postings`;
    const violations = await violationsIn(tx);
    return { ok: violations.length === 0, checkedAt: new Date().toISOString(), postings: Number(counted!.postings), violations };
  });
  recordLedgerCheck(report.ok);
  return report;
}
