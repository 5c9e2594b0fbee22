// A run's passes over the route's records: the received Pix (with their devoluções), then the envios,
// each streamed a page at a time, never held whole. For each page the engine is read once
// (engine.ts), each record judged (match.ts), and each verdict applied: an item found again is left as
// it is (one still open that the run corrects is corrected again: a step that stopped midway), a new
// item is inserted (with its money put in suspense, in the same PostgreSQL transaction) and corrected.
// What the page read is staged in the run's working set: the counts and the missing_at_psp step come
// from there. The margins around the window are read too, only to learn which engine operations the
// PSP holds: an operation approved at 23:59:59 may be listed by the PSP a little after midnight.
import type { Sql } from '../db/database.js';
import type { RouteReceivedRecord, RouteRecords, RouteRefundRecord, RouteSentRecord } from '../pix-routes/route-records.js';
import type { Deps } from '../runtime/deps.js';
import { recordMedDevolucao, settleDevolucao, settleEnvio, settleLateCharge, type Corrected } from './corrections.js';
import { receivedFacts, sentFacts } from './engine.js';
import { itemIdOf, recordKeys } from './ids.js';
import { CORRECTING_KINDS, judgeReceived, judgeRefund, judgeSent, type Action, type ItemVerdict, type Verdict } from './match.js';
import { toItemRow, type ItemRow, type RawItemRow } from './repository.js';
import { runWindow, type RunWindow } from './runs.js';
import { holdInSuspense } from './suspense.js';

/** How far around its window a run reads the PSP's records: the clock skew between the engine and the PSP. */
export const CLOCK_SKEW_MS = 15 * 60_000;

export interface PassDeps {
  deps: Deps;
  /** The records of the route of that name. */
  records(route: string): RouteRecords;
  /** Told the records read so far, after each page (the activity heartbeats it). */
  progress(read: number): void;
}

type RecordType = 'received' | 'sent' | 'refund';

/** A PSP record as the run stages it. */
interface Staged {
  key: string;
  type: RecordType;
  inWindow: boolean;
  engineId: string | null;
  itemId: string | null;
}

/** What an item about the record shows of it. */
interface RecordFields {
  endToEndId: string | null;
  txid: string | null;
  idEnvio: string | null;
  pspAmountCents: number;
  payer: { name: string | null; document: string | null } | null;
}

interface Judged {
  key: string;
  type: RecordType;
  inWindow: boolean;
  verdict: Verdict;
  existing: ItemRow | undefined;
  fields: RecordFields;
  /** Makes the correction the verdict's action asks for. */
  correct(action: Action, verdict: ItemVerdict): Corrected;
}

const windowsOf = (run: RunWindow) => [
  { from: run.from, to: run.to, inWindow: true },
  { from: new Date(run.from.getTime() - CLOCK_SKEW_MS), to: run.from, inWindow: false },
  { from: run.to, to: new Date(run.to.getTime() + CLOCK_SKEW_MS), inWindow: false },
];

async function createItem(sql: Sql, run: RunWindow, judged: Judged, verdict: ItemVerdict): Promise<ItemRow> {
  const { fields } = judged;
  const held = verdict.action.type === 'hold' ? fields.pspAmountCents : 0;
  return sql.begin(async (tx) => {
    const [raw] = await tx<RawItemRow[]>`
      insert into reconciliation_items (
        id, run_id, route, record_key, kind, status, transaction_id, end_to_end_id, txid, id_envio,
        psp_amount, engine_amount, held_amount, payer, detail)
      values (
        ${itemIdOf(run.route, judged.key)}, ${run.id}, ${run.route}, ${judged.key}, ${verdict.kind}, 'open', ${verdict.transactionId},
        ${fields.endToEndId}, ${fields.txid}, ${fields.idEnvio}, ${fields.pspAmountCents}, ${verdict.engineAmountCents}, ${held},
        ${fields.payer === null ? null : tx.json(fields.payer)}, ${verdict.detail})
      on conflict (route, record_key) do nothing
      returning *`;
    if (!raw) {
      const [found] = await tx<RawItemRow[]>`select * from reconciliation_items where route = ${run.route} and record_key = ${judged.key}`;
      return toItemRow(found!);
    }
    const item = toItemRow(raw);
    if (held > 0) await holdInSuspense(tx, item, held);
    return item;
  }) as Promise<ItemRow>;
}

async function markCorrected(sql: Sql, item: ItemRow): Promise<void> {
  await sql`update reconciliation_items set status = 'corrected' where id = ${item.id} and status = 'open'`;
}

/** An item the run corrects, still open: corrected now, or found already agreeing (a correction made before a step stopped). */
async function correctOpenItem(deps: Deps, item: ItemRow, judged: Judged): Promise<void> {
  const { verdict } = judged;
  if (verdict.verdict === 'matched') return markCorrected(deps.sql, item);
  const { action } = verdict;
  if (verdict.kind !== item.kind || action.type === 'none' || action.type === 'hold') return;
  if (await judged.correct(action, verdict)) return markCorrected(deps.sql, item);
  deps.log.warn({ itemId: item.id, kind: item.kind }, 'reconciliation: the operation had already ended otherwise; the item stays open');
}

async function applyVerdict(deps: Deps, run: RunWindow, judged: Judged): Promise<Staged> {
  const { key, type, inWindow, verdict, existing } = judged;
  const staged: Staged = { key, type, inWindow, engineId: verdict.engineId, itemId: existing?.id ?? null };
  if (!inWindow || (!existing && verdict.verdict === 'matched')) return staged;
  const item = existing ?? (await createItem(deps.sql, run, judged, verdict as ItemVerdict));
  if (!existing && item.runId === run.id) {
    deps.log.warn(
      { route: run.route, runId: run.id, itemId: item.id, kind: item.kind, transactionId: item.transactionId },
      'reconciliation item found',
    );
  }
  if (item.status === 'open' && CORRECTING_KINDS.includes(item.kind)) await correctOpenItem(deps, item, judged);
  return { ...staged, itemId: item.id };
}

/** Stages what a page read, once per record (a record listed twice, or read again by a retried step, is one). */
async function stage(sql: Sql, runId: string, staged: Staged[]): Promise<void> {
  const byKey = new Map<string, Staged>();
  for (const record of staged) {
    const seen = byKey.get(record.key);
    byKey.set(record.key, seen ? { ...record, inWindow: seen.inWindow || record.inWindow } : record);
  }
  const rows = [...byKey.values()];
  if (rows.length === 0) return;
  // The flags travel as text: postgres.js writes a boolean[] parameter wrong.
  await sql`
    insert into reconciliation_records as r (run_id, record_key, record_type, in_window, engine_id, item_id)
    select ${runId}, s.key, s.type, s.in_window = 't', s.engine_id, s.item_id
    from unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.type)}::text[], ${rows.map((r) => (r.inWindow ? 't' : 'f'))}::text[],
                ${rows.map((r) => r.engineId)}::text[], ${rows.map((r) => r.itemId)}::text[]) as s(key, type, in_window, engine_id, item_id)
    on conflict (run_id, record_key) do update
    set in_window = r.in_window or excluded.in_window,
        engine_id = coalesce(excluded.engine_id, r.engine_id),
        item_id = coalesce(excluded.item_id, r.item_id)`;
}

const pixFields = (pix: RouteReceivedRecord): RecordFields => ({
  endToEndId: pix.endToEndId,
  txid: pix.txid,
  idEnvio: null,
  pspAmountCents: pix.amountCents,
  payer: pix.payer,
});

async function receivedPage(deps: Deps, run: RunWindow, page: RouteReceivedRecord[], inWindow: boolean): Promise<Staged[]> {
  const keys = page.flatMap((pix) => [recordKeys.received(pix.endToEndId), ...pix.refunds.map((d) => recordKeys.refund(d.id))]);
  const facts = await receivedFacts(deps.sql, run.route, page, keys);
  const staged: Staged[] = [];
  for (const pix of page) {
    const charge = facts.chargeOf(pix);
    const key = recordKeys.received(pix.endToEndId);
    staged.push(
      await applyVerdict(deps, run, {
        key,
        type: 'received',
        inWindow,
        verdict: judgeReceived(pix, charge),
        existing: facts.item(key),
        fields: pixFields(pix),
        correct: (_action, verdict) => settleLateCharge(deps, verdict.transactionId!, pix),
      }),
    );
    for (const devolucao of pix.refunds) {
      const refundKey = recordKeys.refund(devolucao.id);
      const verdict = judgeRefund(devolucao, {
        charge,
        refund: facts.refund(devolucao.id),
        medRecorded: charge !== null && facts.medRecorded(charge.id, devolucao.id),
      });
      staged.push(
        await applyVerdict(deps, run, {
          key: refundKey,
          type: 'refund',
          inWindow,
          verdict,
          existing: facts.item(refundKey),
          fields: { ...pixFields(pix), pspAmountCents: devolucao.amountCents, payer: null },
          correct: (action, judged) => correctDevolucao(deps, action, judged, devolucao),
        }),
      );
    }
  }
  return staged;
}

function correctDevolucao(deps: Deps, action: Action, verdict: ItemVerdict, devolucao: RouteRefundRecord): Corrected {
  if (action.type === 'record_med') return recordMedDevolucao(deps, verdict.transactionId!, devolucao);
  if (action.type === 'settle_refund' || action.type === 'settle_suspense_refund')
    return settleDevolucao(deps, verdict.engineId!, devolucao, action);
  throw new Error(`no correction ${action.type} for a devolução`);
}

async function sentPage(deps: Deps, run: RunWindow, page: RouteSentRecord[], inWindow: boolean): Promise<Staged[]> {
  const keys = page.map((envio) => recordKeys.sent(envio.idEnvio));
  const facts = await sentFacts(deps.sql, run.route, page, keys);
  const staged: Staged[] = [];
  for (const envio of page) {
    const key = recordKeys.sent(envio.idEnvio);
    staged.push(
      await applyVerdict(deps, run, {
        key,
        type: 'sent',
        inWindow,
        verdict: judgeSent(envio, facts.transfer(envio.idEnvio)),
        existing: facts.item(key),
        fields: { endToEndId: envio.endToEndId, txid: null, idEnvio: envio.idEnvio, pspAmountCents: envio.amountCents, payer: null },
        correct: (action, verdict) => {
          if (action.type !== 'settle_transfer') throw new Error(`no correction ${action.type} for an envio`);
          return settleEnvio(deps, verdict.engineId!, envio, action);
        },
      }),
    );
  }
  return staged;
}

async function pass<R>(
  { deps, progress }: PassDeps,
  runId: string,
  list: (run: RunWindow, from: Date, to: Date) => AsyncIterable<R[]>,
  page: (deps: Deps, run: RunWindow, records: R[], inWindow: boolean) => Promise<Staged[]>,
): Promise<number> {
  const run = await runWindow(deps.sql, runId);
  let read = 0;
  for (const window of windowsOf(run)) {
    for await (const records of list(run, window.from, window.to)) {
      await stage(deps.sql, run.id, await page(deps, run, records, window.inWindow));
      read += records.length;
      progress(read);
    }
  }
  return read;
}

/** The received Pix of the run's window, with their devoluções; answers how many were read (margins included). */
export function reconcileReceived(passDeps: PassDeps, runId: string): Promise<number> {
  return pass(passDeps, runId, (run, from, to) => passDeps.records(run.route).received(from, to), receivedPage);
}

/** The envios of the run's window; answers how many were read (margins included). */
export function reconcileSent(passDeps: PassDeps, runId: string): Promise<number> {
  return pass(passDeps, runId, (run, from, to) => passDeps.records(run.route).sent(from, to), sentPage);
}
