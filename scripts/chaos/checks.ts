// What must hold once everything settled, whatever was killed on the way. Each check answers how many
// things it examined and every violation it found, named precisely enough to look up in the logs.
import type { Sql } from '../../src/db/database.js';
import type { LedgerReport } from '../../src/ledger/check.js';
import { read, type CheckResult } from './check-result.js';
import { faultsInjected, noServerErrorBeforeFaults, type CampaignRecord } from './campaign-checks.js';
import {
  creditsEqualPaid,
  moneyInMinusOut,
  refundsReservedOnce,
  reservedOnce,
  returnedAtMostPaid,
  type ReservedRow,
} from './money-checks.js';
import type { Deliveries } from './receiver.js';
import type { WorkloadResult } from './workload.js';

/** What is still moving: pending transactions and refunds, open MEDs, deliveries not finished, events the receiver lacks. */
export async function unsettled(sql: Sql, deliveries: () => Deliveries): Promise<string[]> {
  const [row] = await read(
    () => sql<{ pending: number; refunds: number; open: number; deliveries: number }[]>`
    select (select count(*)::int from transactions where status = 'pending') as pending,
           (select count(*)::int from refunds where status = 'pending') as refunds,
           (select count(*)::int from meds where status = 'open') as open,
           (select count(*)::int from webhook_deliveries where status = 'pending') as deliveries`,
  );
  const events = await read(() => sql<{ id: string }[]>`select id from events`);
  const received = deliveries().eventIds;
  const missing = events.filter((e) => !received.has(e.id)).length;
  return [
    row!.pending ? `${row!.pending} pending transactions` : '',
    row!.refunds ? `${row!.refunds} pending refunds` : '',
    row!.open ? `${row!.open} open MEDs` : '',
    row!.deliveries ? `${row!.deliveries} pending webhook deliveries` : '',
    missing ? `${missing} events not received` : '',
  ].filter(Boolean);
}

function ledgerCheck(report: LedgerReport): CheckResult {
  return {
    name: 'ledger check (GET /admin/ledger/check)',
    examined: report.postings,
    violations: report.violations.map((v) => JSON.stringify(v)),
  };
}

/** Each customer balance against what the read model says happened: transactions, refunds and MEDs. */
async function balances(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<{ account: string; kind: string; ledger: bigint; expected: bigint }[]>`
    with credits as (
      select account_id as account, net_amount as amount from transactions where type = 'payment' and status in ('approved', 'refunded')
      union all
      select share->>'accountId', (share->>'amountCents')::bigint
      from transactions, jsonb_array_elements(split) as share where type = 'payment' and status in ('approved', 'refunded')
      union all
      select account_id, -debited_amount from transactions where type = 'withdrawal' and status in ('pending', 'approved')
      union all
      select account_id, -amount from refunds where status in ('pending', 'approved')
      union all
      select account_id, -retained_amount from meds where status in ('open', 'accepted')
    ),
    expected as (
      select a.id as account, 'available' as kind, coalesce((select sum(amount) from credits c where c.account = a.id), 0) as expected from accounts a
      union all
      select a.id, 'reserved',
             coalesce((select sum(debited_amount) from transactions t where t.account_id = a.id and t.type = 'withdrawal' and t.status = 'pending'), 0)
             + coalesce((select sum(amount) from refunds r where r.account_id = a.id and r.status = 'pending'), 0)
      from accounts a
      union all
      select a.id, 'retained', coalesce((select sum(retained_amount) from meds m where m.account_id = a.id and m.status = 'open'), 0) from accounts a
    )
    select e.account, e.kind, coalesce(l.balance, 0)::bigint as ledger, e.expected::bigint as expected
    from expected e left join ledger_balances l on l.owner_id = e.account and l.kind = e.kind`,
  );
  return {
    name: 'balances = recomputation from transactions, refunds and MEDs',
    examined: rows.length,
    violations: rows
      .filter((r) => r.ledger !== r.expected)
      .map((r) => `${r.account}:${r.kind} ledger ${r.ledger} ≠ recomputed ${r.expected}`),
  };
}

/** A charge the network marked paid is approved and credited by exactly one settlement; no other charge is credited. */
async function chargesCreditedOnce(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<{ id: string; status: string; network: string | null; settlements: number; postings: number }[]>`
    select t.id, t.status, s.status as network,
           (select count(*)::int from ledger_postings p where p.posting_key = 'charge:' || t.id || ':settle') as settlements,
           (select count(*)::int from ledger_postings p where p.transaction_id = t.id and p.posting_key like 'charge:%') as postings
    from transactions t left join simulator_charges s on s.transaction_id = t.id
    where t.type = 'payment'`,
  );
  const violations: string[] = [];
  for (const r of rows) {
    const credited = r.status === 'approved' || r.status === 'refunded';
    if ((r.network === 'paid') !== credited) violations.push(`${r.id}: network ${r.network ?? 'none'} but engine ${r.status}`);
    if (r.settlements !== (credited ? 1 : 0) || r.postings !== r.settlements)
      violations.push(`${r.id} (${r.status}): ${r.settlements} settlements, ${r.postings} charge postings`);
  }
  return { name: 'every paid charge credited once', examined: rows.length, violations };
}

/** A transfer is reserved once, then either settled (network approved) or released (network failed), never both. */
async function transfersDebitedOnce(sql: Sql): Promise<CheckResult> {
  const rows = await read(
    () => sql<ReservedRow[]>`
    select t.id, t.status, s.status as network,
           (select count(*)::int from ledger_postings p where p.posting_key = 'transfer:' || t.id || ':reserve') as reserve,
           (select count(*)::int from ledger_postings p where p.posting_key = 'transfer:' || t.id || ':settle') as settle,
           (select count(*)::int from ledger_postings p where p.posting_key = 'transfer:' || t.id || ':release') as release
    from transactions t left join simulator_transfers s on s.transaction_id = t.id
    where t.type = 'withdrawal'`,
  );
  return { name: 'every transfer debited at most once', examined: rows.length, violations: reservedOnce(rows) };
}

async function nothingPending(sql: Sql): Promise<CheckResult> {
  const transactions = await read(
    () => sql<{ id: string; type: string; expires_at: Date; created_at: Date }[]>`
    select id, type, expires_at, created_at from transactions where status = 'pending'`,
  );
  const refunds = await read(() => sql<{ id: string; created_at: Date }[]>`select id, created_at from refunds where status = 'pending'`);
  const meds = await read(() => sql<{ id: string }[]>`select id from meds where status = 'open'`);
  const deliveries = await read(
    () => sql<{ id: string; event_id: string; attempt_count: number }[]>`
    select id, event_id, attempt_count from webhook_deliveries where status <> 'succeeded'`,
  );
  const [counted] = await read(
    () => sql<{ total: number }[]>`
    select (select count(*)::int from transactions) + (select count(*)::int from refunds) + (select count(*)::int from meds)
           + (select count(*)::int from webhook_deliveries) as total`,
  );
  return {
    name: 'no payment, refund, MED or delivery left unsettled',
    examined: counted!.total,
    violations: [
      ...transactions.map(
        (t) => `${t.type} ${t.id} still pending (created ${t.created_at.toISOString()}, expires ${t.expires_at.toISOString()})`,
      ),
      ...refunds.map((r) => `refund ${r.id} still pending (created ${r.created_at.toISOString()})`),
      ...meds.map((m) => `MED ${m.id} still open`),
      ...deliveries.map((d) => `webhook delivery ${d.id} of ${d.event_id} not succeeded after ${d.attempt_count} attempts`),
    ],
  };
}

async function eventsDelivered(sql: Sql, deliveries: Deliveries): Promise<CheckResult> {
  const events = await read(() => sql<{ id: string }[]>`select id from events order by created_at`);
  return {
    name: 'every event delivered at least once (signature verified)',
    examined: events.length,
    violations: [
      ...events.filter((e) => !deliveries.eventIds.has(e.id)).map((e) => `event ${e.id} never received with a valid signature and a 2xx`),
      ...deliveries.badSignatures.map((b) => `bad signature: ${b}`),
    ],
  };
}

/** One transaction per (account, key) in the database, and every final answer for a key named that one. */
async function oneTransactionPerKey(sql: Sql, workload: WorkloadResult): Promise<CheckResult> {
  const duplicated = await read(
    () => sql<{ account_id: string; external_id: string; ids: string[] }[]>`
    select account_id, external_id, array_agg(id) as ids from transactions group by 1, 2 having count(*) > 1`,
  );
  const stored = new Map(
    (
      await read(() => sql<{ id: string; account_id: string; external_id: string }[]>`select id, account_id, external_id from transactions`)
    ).map((r) => [`${r.account_id} ${r.external_id}`, r.id]),
  );
  const violations = duplicated.map((d) => `${d.account_id} key ${d.external_id}: ${d.ids.join(', ')}`);
  for (const k of workload.keyed) {
    const id = stored.get(`${k.accountId} ${k.key}`);
    if (id !== k.transactionId) violations.push(`${k.accountId} key ${k.key}: answered ${k.transactionId}, stored ${id ?? 'nothing'}`);
  }
  return { name: 'one transaction per key', examined: workload.keyed.length, violations };
}

/** The status of every row of `table`, by id. */
async function statuses(sql: Sql, table: 'meds' | 'refunds' | 'recurrences'): Promise<Map<string, string>> {
  return new Map(
    (await read(() => sql<{ id: string; status: string }[]>`select id, status from ${sql(table)}`)).map((r) => [r.id, r.status]),
  );
}

/** Each operation's own expectation: the final state the network's answer implies, and what the payer paid. */
async function expectations(sql: Sql, workload: WorkloadResult): Promise<CheckResult> {
  const transactions = new Map(
    (
      await read(
        () => sql<{ id: string; status: string; expired: boolean; paid: bigint | null }[]>`
        select id, status, expired, paid_amount as paid from transactions`,
      )
    ).map((r) => [r.id, r]),
  );
  const others = {
    MED: await statuses(sql, 'meds'),
    refund: await statuses(sql, 'refunds'),
    recurrence: await statuses(sql, 'recurrences'),
  };
  const violations: string[] = [];
  for (const e of workload.expectations) {
    if ('medId' in e || 'refundId' in e || 'recurrenceId' in e) {
      const [what, id] =
        'medId' in e
          ? (['MED', e.medId] as const)
          : 'refundId' in e
            ? (['refund', e.refundId] as const)
            : (['recurrence', e.recurrenceId] as const);
      const status = others[what].get(id);
      if (status !== e.status) violations.push(`${what} ${id}: ${status ?? 'missing'}, expected ${e.status} (${e.why})`);
      continue;
    }
    if ('transferId' in e) {
      const pair = `${transactions.get(e.transferId)?.status} ${transactions.get(e.chargeId)?.status}`;
      if (!['approved approved', 'approved refunded', 'failed cancelled'].includes(pair)) {
        violations.push(`${e.why} ${e.transferId} of ${e.chargeId}: ${pair}, expected both approved, or failed and cancelled`);
      }
      continue;
    }
    const row = transactions.get(e.transactionId);
    // A refund or a MED accepted later may have returned the whole charge.
    const status = row?.status === 'refunded' && e.status === 'approved' ? 'approved' : row?.status;
    if (status !== e.status || (e.expired !== undefined && row!.expired !== e.expired)) {
      violations.push(
        `${e.transactionId}: ${row?.status ?? 'missing'}${row?.expired ? ' (expired)' : ''}, expected ${e.status}${e.expired ? ' (expired)' : ''} (${e.why})`,
      );
    }
    if (e.paidCents !== undefined && row && Number(row.paid) !== e.paidCents)
      violations.push(`${e.transactionId}: paid ${row.paid ?? 'nothing'}, expected ${e.paidCents} centavos (${e.why})`);
  }
  return { name: 'every operation ended as the network decided', examined: workload.expectations.length, violations };
}

/** A check that examined nothing and found nothing proved nothing: it fails, so a workload that stopped exercising it is seen. */
const examinedSomething = (check: CheckResult): CheckResult =>
  check.examined > 0 || check.violations.length > 0
    ? check
    : { ...check, violations: ['examined nothing: this run did not exercise what the check guards'] };

export async function runChecks(
  sql: Sql,
  ledger: LedgerReport,
  workload: WorkloadResult,
  deliveries: Deliveries,
  campaign: CampaignRecord,
): Promise<CheckResult[]> {
  const checks = [
    faultsInjected(campaign.faults),
    noServerErrorBeforeFaults(campaign),
    ledgerCheck(ledger),
    await balances(sql),
    await moneyInMinusOut(sql),
    await chargesCreditedOnce(sql),
    await creditsEqualPaid(sql),
    await returnedAtMostPaid(sql),
    await transfersDebitedOnce(sql),
    await refundsReservedOnce(sql),
    await nothingPending(sql),
    await eventsDelivered(sql, deliveries),
    await oneTransactionPerKey(sql, workload),
    await expectations(sql, workload),
    {
      name: 'every request got a final answer as the contract says',
      examined: [...workload.ops.values()].reduce((a, b) => a + b, 0),
      violations: workload.findings.map((f) => `op ${f.op} ${f.kind}: ${f.what}`),
    },
  ];
  return checks.map(examinedSomething);
}
