// What a PSP webhook names, stored before the listener answers (a `pix` body, a webhookrec's `recs`, a
// webhookcobr's `cobsr`). The body is only a hint: nothing here
// moves money. A txid of an engine charge, an Efí `gnExtras.idEnvio` of an engine transfer and the
// endToEndId of a received Pix become rows of `psp_hints` (migration 120), from which the hint
// processor wakes their workflows (hint-processor.ts, wake.ts). Whatever a body names costs a bounded
// amount: at most MAX_HINTS_PER_BODY names, one statement, and one log line (app.ts).
import type { Sql } from '../db/database.js';
import { chargeIdOfTxid, transferIdOfIdEnvio } from '../pix-routes/bcb-api-pix/ids.js';

/** Names of one body acted on; the rest are counted as `ignored` (a PSP sends a few Pix per call). */
export const MAX_HINTS_PER_BODY = 100;

export interface PixHints {
  chargeIds: string[];
  transferIds: string[];
  endToEndIds: string[];
  /** The PSP's ids of recurrences (`idRec`), named by a webhookrec. */
  recurrenceRefs?: string[];
  /** Distinct names past MAX_HINTS_PER_BODY. */
  ignored: number;
}

/** What a row of psp_hints names: a charge, a transfer, or a received Pix (its endToEndId). */
export type HintKind = 'charge' | 'transfer' | 'pix' | 'recurrence';

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null);

/** The engine's operations and the received Pix a webhook body names (the standard's `{"pix": [...]}`), each once. */
export function pixHints(body: unknown): PixHints {
  const entries = (body as { pix?: unknown } | null)?.pix;
  const charges = new Set<string>();
  const transfers = new Set<string>();
  const endToEndIds = new Set<string>();
  let ignored = 0;
  const add = (names: Set<string>, name: string) => {
    if (names.has(name)) return;
    if (charges.size + transfers.size + endToEndIds.size < MAX_HINTS_PER_BODY) names.add(name);
    else ignored += 1;
  };
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { txid, endToEndId, gnExtras } = entry as { txid?: unknown; endToEndId?: unknown; gnExtras?: { idEnvio?: unknown } };
    const chargeId = text(txid) && chargeIdOfTxid(text(txid)!);
    const transferId = text(gnExtras?.idEnvio) && transferIdOfIdEnvio(text(gnExtras?.idEnvio)!);
    if (chargeId) add(charges, chargeId);
    if (transferId) add(transfers, transferId);
    if (text(endToEndId) && !transferId) add(endToEndIds, text(endToEndId)!);
  }
  return { chargeIds: [...charges], transferIds: [...transfers], endToEndIds: [...endToEndIds], ignored };
}

/** The standard's RecId. */
const ID_REC = /^[a-zA-Z0-9]{29}$/;

/** What a webhookrec body names (`{"recs": [{idRec, …}]}`): the recurrences, each once (the rest of the body is not trusted). */
export function recHints(body: unknown): PixHints {
  const refs = new Set<string>();
  let ignored = 0;
  for (const entry of listOf(body, 'recs')) {
    const idRec = text((entry as { idRec?: unknown }).idRec);
    if (!idRec || !ID_REC.test(idRec) || refs.has(idRec)) continue;
    if (refs.size < MAX_HINTS_PER_BODY) refs.add(idRec);
    else ignored += 1;
  }
  return { chargeIds: [], transferIds: [], endToEndIds: [], recurrenceRefs: [...refs], ignored };
}

/** What a webhookcobr body names (`{"cobsr": [{txid, …}]}`): the engine's cycle charges, each once. */
export function cobrHints(body: unknown): PixHints {
  const charges = new Set<string>();
  let ignored = 0;
  for (const entry of listOf(body, 'cobsr')) {
    const txid = text((entry as { txid?: unknown }).txid);
    const chargeId = txid && chargeIdOfTxid(txid);
    if (!chargeId || charges.has(chargeId)) continue;
    if (charges.size < MAX_HINTS_PER_BODY) charges.add(chargeId);
    else ignored += 1;
  }
  return { chargeIds: [...charges], transferIds: [], endToEndIds: [], ignored };
}

function listOf(body: unknown, field: string): object[] {
  const entries = (body as Record<string, unknown> | null)?.[field];
  return Array.isArray(entries) ? entries.filter((entry): entry is object => typeof entry === 'object' && entry !== null) : [];
}

/** Stores the body's names for the hint processor, in one statement; answers whether there were any. */
export async function recordHints(sql: Sql, route: string, hints: PixHints): Promise<boolean> {
  const kinds: HintKind[] = [];
  const names: string[] = [];
  const add = (kind: HintKind, ids: string[]) => {
    for (const id of ids) {
      kinds.push(kind);
      names.push(id);
    }
  };
  add('charge', hints.chargeIds);
  add('transfer', hints.transferIds);
  add('pix', hints.endToEndIds);
  add('recurrence', hints.recurrenceRefs ?? []);
  if (names.length === 0) return false;
  await sql`insert into psp_hints (route, kind, name) select ${route}, kind, name from unnest(${kinds}::text[], ${names}::text[]) as named (kind, name)`;
  return true;
}
