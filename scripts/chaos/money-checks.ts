// The money invariants, each read from PostgreSQL once everything settled: what the network (the
// simulator's own tables) says moved, against what the engine recorded and posted. For each Pix,
// what went back (refunds and MEDs) is at most what was paid; each credit is what the payer paid; the
// balances are what came in minus what went out; each refund is reserved once, then settled or released.
import type { Sql } from '../../src/db/database.js';
import { read, type CheckResult } from './check-result.js';

/** For each charge with a refund or a MED: approved refunds plus what accepted MEDs returned ≤ what was paid. */
export async function returnedAtMostPaid(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<{ id: string; status: string; paid: bigint; recorded: bigint; refunded: bigint; medReturned: bigint; both: boolean }[]>`
    select t.id, t.status, coalesce(t.paid_amount, t.amount) as paid, t.refunded_amount as recorded,
           coalesce(r.approved, 0)::bigint as refunded, coalesce(m.returned, 0)::bigint as "medReturned",
           r.transaction_id is not null and m.transaction_id is not null as both
    from transactions t
    left join (select transaction_id, sum(amount) filter (where status = 'approved') as approved from refunds group by 1) r
      on r.transaction_id = t.id
    left join (select transaction_id, sum(returned_amount) filter (where status = 'accepted') as returned from meds group by 1) m
      on m.transaction_id = t.id
    where t.type = 'payment' and (r.transaction_id is not null or m.transaction_id is not null)`,
  );
  const violations: string[] = [];
  for (const r of rows) {
    const returned = r.refunded + r.medReturned;
    if (returned > r.paid)
      violations.push(`${r.id}: returned ${returned} (refunds ${r.refunded}, MEDs ${r.medReturned}) of ${r.paid} paid`);
    if (r.recorded !== returned) violations.push(`${r.id}: refunded_amount ${r.recorded}, but its refunds and MEDs returned ${returned}`);
    if ((r.status === 'refunded') !== returned >= r.paid) violations.push(`${r.id} is ${r.status} with ${returned} of ${r.paid} returned`);
  }
  const both = rows.filter((r) => r.both).length;
  return { name: `for each Pix, returned ≤ paid (${both} with both a refund and a MED)`, examined: rows.length, violations };
}

/** Each approved charge: the engine's paid amount and its settlement's credits are what the payer paid at the network. */
export async function creditsEqualPaid(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<{ id: string; recorded: bigint | null; network: bigint | null; credited: bigint | null }[]>`
    select t.id, t.paid_amount as recorded, s.paid_amount as network,
           (select sum(e.amount) from ledger_postings p join ledger_entries e on e.posting_id = p.id
            where p.posting_key = 'charge:' || t.id || ':settle' and e.amount > 0)::bigint as credited
    from transactions t left join simulator_charges s on s.transaction_id = t.id
    where t.type = 'payment' and t.status in ('approved', 'refunded')`,
  );
  const violations = rows
    .filter((r) => r.network === null || r.recorded !== r.network || r.credited !== r.network)
    .map(
      (r) =>
        `${r.id}: the payer paid ${r.network ?? 'nothing'}, the engine recorded ${r.recorded ?? 'nothing'} and credited ${r.credited ?? 'nothing'}`,
    );
  return { name: 'each credit equals what the payer paid', examined: rows.length, violations };
}

/**
 * Customer balances and fee revenue together = money in (what payers paid at the network) − money out
 * (transfers, refunds the network approved, what MEDs returned): the rest is Pix clearing's.
 */
export async function moneyInMinusOut(sql: Sql): Promise<CheckResult> {
  const [totals] = await read(
    () => sql<{ moneyIn: bigint; moneyOut: bigint; held: bigint; accounts: number }[]>`
    select (select coalesce(sum(coalesce(paid_amount, amount)), 0) from simulator_charges where status = 'paid')::bigint as "moneyIn",
           ((select coalesce(sum(amount), 0) from simulator_transfers where status = 'approved')
            + (select coalesce(sum(amount), 0) from simulator_refunds where status = 'approved')
            + (select coalesce(sum(returned_amount), 0) from meds where status = 'accepted'))::bigint as "moneyOut",
           (select coalesce(sum(balance), 0) from ledger_balances where kind <> 'pix_clearing')::bigint as held,
           (select count(*)::int from ledger_balances where kind <> 'pix_clearing') as accounts`,
  );
  const { moneyIn, moneyOut, held, accounts } = totals!;
  return {
    name: 'balances = money in − money out',
    examined: accounts,
    violations: held === moneyIn - moneyOut ? [] : [`balances and fee revenue hold ${held}, money in ${moneyIn} − money out ${moneyOut}`],
  };
}

/** A refund is reserved once, then settled (the network approved it) or released (the network failed it), never both. */
export async function refundsReservedOnce(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<ReservedRow[]>`
    select r.id, r.status, s.status as network,
           (select count(*)::int from ledger_postings p where p.posting_key = 'refund:' || r.id || ':reserve') as reserve,
           (select count(*)::int from ledger_postings p where p.posting_key = 'refund:' || r.id || ':settle') as settle,
           (select count(*)::int from ledger_postings p where p.posting_key = 'refund:' || r.id || ':release') as release
    from refunds r left join simulator_refunds s on s.refund_id = r.id`,
  );
  return { name: 'every refund reserved once, then settled or released', examined: rows.length, violations: reservedOnce(rows) };
}

export interface ReservedRow {
  id: string;
  status: string;
  /** The simulated network's status of it. */
  network: string | null;
  reserve: number;
  settle: number;
  release: number;
}

/** Each row's postings by its status (pending: reserved; approved: reserved and settled; failed: reserved and released) and the network agreeing once final. */
export function reservedOnce(rows: ReservedRow[]): string[] {
  const violations: string[] = [];
  for (const r of rows) {
    const expected = { approved: [1, 1, 0], failed: [1, 0, 1], pending: [1, 0, 0] }[r.status] ?? [-1, -1, -1];
    if (r.reserve !== expected[0] || r.settle !== expected[1] || r.release !== expected[2])
      violations.push(`${r.id} (${r.status}): reserve ${r.reserve}, settle ${r.settle}, release ${r.release}`);
    if (r.status !== 'pending' && r.network !== r.status) violations.push(`${r.id}: network ${r.network ?? 'none'} but engine ${r.status}`);
  }
  return violations;
}
