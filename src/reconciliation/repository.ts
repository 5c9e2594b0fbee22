// Runs and items as PostgreSQL holds them (migration 150_reconciliation.sql), read for the admin API
// and the run's own steps.
import type { Sql, TxSql } from '../db/database.js';
import type { ItemKind } from './match.js';

export type RunStatus = 'running' | 'completed' | 'failed';
export type ItemStatus = 'corrected' | 'open' | 'resolved';

export interface RunCounts {
  pspReceived: number;
  pspSent: number;
  pspRefunds: number;
  matched: number;
  corrected: number;
  open: number;
}

export interface RunRow {
  id: string;
  route: string;
  from: Date;
  to: Date;
  status: RunStatus;
  failure: string | null;
  startedAt: Date;
  completedAt: Date | null;
  counts: RunCounts;
}

/** A resolution as the item keeps it; `refund` carries its devolução's state. */
export type Resolution =
  | { action: 'credit'; accountId: string; transactionId: string }
  | { action: 'refund'; refund: { status: 'pending' | 'approved' | 'failed'; reason: string | null } }
  | { action: 'dismiss'; note: string };

export interface ItemRow {
  id: string;
  runId: string;
  route: string;
  recordKey: string;
  kind: ItemKind;
  status: ItemStatus;
  transactionId: string | null;
  endToEndId: string | null;
  txid: string | null;
  idEnvio: string | null;
  pspAmountCents: number | null;
  engineAmountCents: number | null;
  heldCents: number;
  payer: { name: string | null; document: string | null } | null;
  detail: string;
  resolution: Resolution | null;
  createdAt: Date;
  resolvedAt: Date | null;
}

export interface RawItemRow {
  id: string;
  run_id: string;
  route: string;
  record_key: string;
  kind: ItemKind;
  status: ItemStatus;
  transaction_id: string | null;
  end_to_end_id: string | null;
  txid: string | null;
  id_envio: string | null;
  psp_amount: bigint | null;
  engine_amount: bigint | null;
  held_amount: bigint;
  payer: ItemRow['payer'];
  detail: string;
  resolution: Resolution | null;
  created_at: Date;
  resolved_at: Date | null;
}

const cents = (value: bigint | null) => (value === null ? null : Number(value));

export function toItemRow(raw: RawItemRow): ItemRow {
  return {
    id: raw.id,
    runId: raw.run_id,
    route: raw.route,
    recordKey: raw.record_key,
    kind: raw.kind,
    status: raw.status,
    transactionId: raw.transaction_id,
    endToEndId: raw.end_to_end_id,
    txid: raw.txid,
    idEnvio: raw.id_envio,
    pspAmountCents: cents(raw.psp_amount),
    engineAmountCents: cents(raw.engine_amount),
    heldCents: Number(raw.held_amount),
    payer: raw.payer,
    detail: raw.detail,
    resolution: raw.resolution,
    createdAt: raw.created_at,
    resolvedAt: raw.resolved_at,
  };
}

/** The run's row with its counts: the ones it read, and its items' statuses now (an item resolved since counts as resolved). */
const RUN_COLUMNS = (sql: Sql | TxSql) => sql`
  r.id, r.route, r.window_from as "from", r.window_to as "to", r.status, r.failure, r.started_at as "startedAt",
  r.completed_at as "completedAt", r.psp_received, r.psp_sent, r.psp_refunds, r.matched,
  (select count(*) from reconciliation_run_items ri join reconciliation_items i on i.id = ri.item_id
   where ri.run_id = r.id and i.status = 'corrected') as corrected,
  (select count(*) from reconciliation_run_items ri join reconciliation_items i on i.id = ri.item_id
   where ri.run_id = r.id and i.status = 'open') as open`;

type RawRun = Omit<RunRow, 'counts'> & Record<'psp_received' | 'psp_sent' | 'psp_refunds' | 'matched' | 'corrected' | 'open', bigint>;

function toRunRow(raw: RawRun): RunRow {
  const { psp_received, psp_sent, psp_refunds, matched, corrected, open, ...run } = raw;
  return {
    ...run,
    counts: {
      pspReceived: Number(psp_received),
      pspSent: Number(psp_sent),
      pspRefunds: Number(psp_refunds),
      matched: Number(matched),
      corrected: Number(corrected),
      open: Number(open),
    },
  };
}

export async function findRun(sql: Sql | TxSql, runId: string): Promise<RunRow | null> {
  const [raw] = await sql<RawRun[]>`select ${RUN_COLUMNS(sql)} from reconciliation_runs r where r.id = ${runId}`;
  return raw ? toRunRow(raw) : null;
}

/** Runs, newest first, of one route or of all. */
export async function listRuns(
  sql: Sql,
  filter: { route: string | undefined; page: number; limit: number },
): Promise<{ rows: RunRow[]; total: number }> {
  const route = filter.route === undefined ? sql`true` : sql`r.route = ${filter.route}`;
  const [rows, [counted]] = await Promise.all([
    sql<RawRun[]>`
      select ${RUN_COLUMNS(sql)} from reconciliation_runs r where ${route}
      order by r.started_at desc, r.id desc
      limit ${filter.limit} offset ${(filter.page - 1) * filter.limit}`,
    sql<{ total: bigint }[]>`select count(*) as total from reconciliation_runs r where ${route}`,
  ]);
  return { rows: rows.map(toRunRow), total: Number(counted!.total) };
}

/** The items a run found (first found by it or by an earlier run over the same records), oldest first. */
export async function runItems(sql: Sql, runId: string): Promise<ItemRow[]> {
  const rows = await sql<RawItemRow[]>`
    select i.* from reconciliation_run_items ri join reconciliation_items i on i.id = ri.item_id
    where ri.run_id = ${runId}
    order by i.created_at, i.id`;
  return rows.map(toItemRow);
}

export async function findItem(sql: Sql | TxSql, itemId: string): Promise<ItemRow | null> {
  const [raw] = await sql<RawItemRow[]>`select * from reconciliation_items where id = ${itemId}`;
  return raw ? toItemRow(raw) : null;
}
