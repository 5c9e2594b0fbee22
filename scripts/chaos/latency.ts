// Payment → approval latency, from the simulated payer's first pay call to the charge's settlement
// posting (the ledger's own clock, on this machine), grouped by the faults that overlapped the charge's
// life: the baseline before any fault, the faulty phase with no fault nearby, and by fault kind. The
// recovery-time figure is how much longer the worst payment waited when a worker was killed under it
// than the worst one before any fault.
import { quantile } from '../../bench/measure.js';
import type { Sql } from '../../src/db/database.js';
import type { Fault, FaultKind } from './faults.js';
import type { PaymentSample } from './workload.js';

export interface LatencyGroup {
  label: string;
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface Latencies {
  groups: LatencyGroup[];
  /** Worst latency with a worker killed during the charge's life minus the worst of the baseline (ms); null without samples. */
  recoveryMs: number | null;
  recoveryP99Ms: number | null;
  /** The slowest payments, for the logs. */
  slowest: Array<{ chargeId: string; ms: number; faults: string }>;
}

const GROUPS = {
  baseline: 'baseline (before any fault)',
  quiet: 'faulty phase, no fault during it',
  worker_kill: 'a worker killed (kill -9) during it',
  api_kill: 'the api killed during it',
  temporal_kill: 'Temporal killed during it',
  db_terminate: 'database connections terminated during it (only)',
} as const;

function groupOf(kinds: Set<FaultKind>, beforeFaults: boolean): keyof typeof GROUPS {
  if (kinds.size === 0) return beforeFaults ? 'baseline' : 'quiet';
  for (const kind of ['temporal_kill', 'api_kill', 'worker_kill'] as const) if (kinds.has(kind)) return kind;
  return 'db_terminate';
}

function summary(label: string, values: number[]): LatencyGroup {
  const sorted = [...values].sort((a, b) => a - b);
  return { label, count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN };
}

export async function paymentLatencies(sql: Sql, payments: PaymentSample[], faults: Fault[], faultsFromMs: number): Promise<Latencies> {
  const settled = await sql<{ id: string; at: Date }[]>`
    select transaction_id as id, created_at as at from ledger_postings
    where transaction_id = any(${payments.map((p) => p.chargeId)}::text[]) and posting_key like 'charge:%:settle'`;
  const approvedAt = new Map(settled.map((r) => [r.id, r.at.getTime()]));
  const byGroup = new Map<keyof typeof GROUPS, number[]>();
  const timed: Latencies['slowest'] = [];
  for (const p of payments) {
    const at = approvedAt.get(p.chargeId);
    if (at === undefined) continue;
    const during = faults.filter((f) => f.atMs <= at && f.recoveredAtMs >= p.createdAtMs);
    const group = groupOf(new Set(during.map((f) => f.kind)), p.paidAtMs < faultsFromMs);
    const ms = at - p.paidAtMs;
    byGroup.set(group, [...(byGroup.get(group) ?? []), ms]);
    timed.push({ chargeId: p.chargeId, ms, faults: during.map((f) => `${f.kind} ${f.target}`).join(', ') || 'none' });
  }
  const groups = (Object.keys(GROUPS) as Array<keyof typeof GROUPS>)
    .filter((g) => byGroup.has(g))
    .map((g) => summary(GROUPS[g], byGroup.get(g)!));
  const baseline = byGroup.has('baseline') ? summary('', byGroup.get('baseline')!) : null;
  const worker = byGroup.has('worker_kill') ? summary('', byGroup.get('worker_kill')!) : null;
  return {
    groups,
    recoveryMs: baseline && worker ? worker.max - baseline.max : null,
    recoveryP99Ms: baseline && worker ? worker.p99 - baseline.p99 : null,
    slowest: timed.sort((a, b) => b.ms - a.ms).slice(0, 5),
  };
}
