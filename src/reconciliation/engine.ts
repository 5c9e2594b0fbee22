// What the engine holds about a page of PSP records, read in a few statements per page (by the
// records' ids, each from an index): the charges the received Pix pay, the refunds and MEDs their
// devoluções are, the transfers the envios are, and the items already found about these records.
import type { Sql } from '../db/database.js';
import { transferIdOfIdEnvio } from '../pix-routes/bcb-api-pix/ids.js';
import type { RouteReceivedRecord, RouteSentRecord } from '../pix-routes/route-records.js';
import { engineIdOfDevolucao } from './ids.js';
import type { EngineCharge, EngineRefund, EngineTransfer } from './match.js';
import { toItemRow, type ItemRow, type RawItemRow, type Resolution } from './repository.js';

export interface ReceivedFacts {
  chargeOf(pix: RouteReceivedRecord): EngineCharge | null;
  refund(devolucaoId: string): EngineRefund | null;
  medRecorded(transactionId: string, devolucaoId: string): boolean;
  item(recordKey: string): ItemRow | undefined;
}

export interface SentFacts {
  transfer(idEnvio: string): EngineTransfer | null;
  item(recordKey: string): ItemRow | undefined;
}

type EngineStatus = EngineCharge['status'];

interface ChargeRow {
  id: string;
  status: EngineStatus;
  amount: bigint;
  endToEndId: string | null;
  txid: string | null;
  dueDate: boolean;
  endedAt: Date | null;
}

async function itemsByKey(sql: Sql, route: string, keys: string[]): Promise<Map<string, ItemRow>> {
  const rows = await sql<RawItemRow[]>`select * from reconciliation_items where route = ${route} and record_key = any(${keys}::text[])`;
  return new Map(rows.map((raw) => [raw.record_key, toItemRow(raw)]));
}

export async function receivedFacts(sql: Sql, route: string, pixes: RouteReceivedRecord[], keys: string[]): Promise<ReceivedFacts> {
  const devolucoes = pixes.flatMap((pix) => pix.refunds.map((refund) => refund.id));
  const ownIds = devolucoes.map(engineIdOfDevolucao).filter((id): id is string => id !== null);
  const txids = pixes.map((pix) => pix.txid).filter((txid): txid is string => txid !== null);
  const [charges, refunds, suspenseRefunds, meds, items] = await Promise.all([
    sql<ChargeRow[]>`
      select id, status, coalesce(paid_amount, amount) as amount, end_to_end_id as "endToEndId", processor_ref as txid,
             due_date is not null as "dueDate",
             -- An ended charge's row last changed when it ended; it was payable no later than its expiry.
             case when status in ('cancelled', 'failed') then least(expires_at, updated_at) end as "endedAt"
      from transactions
      where acquirer = ${route} and type = 'payment'
        and (end_to_end_id = any(${pixes.map((pix) => pix.endToEndId)}::text[]) or processor_ref = any(${txids}::text[]))`,
    sql<{ id: string; status: EngineRefund['status']; amount: bigint; transactionId: string }[]>`
      select id, status, amount, transaction_id as "transactionId" from refunds where route = ${route} and id = any(${ownIds}::text[])`,
    sql<{ id: string; resolution: Extract<Resolution, { action: 'refund' | 'credit' }>; amount: bigint }[]>`
      select id, resolution, psp_amount as amount from reconciliation_items
      where route = ${route} and id = any(${ownIds}::text[]) and resolution ->> 'action' in ('refund', 'credit')`,
    sql<{ transactionId: string; returnId: string }[]>`
      select transaction_id as "transactionId", route_return_id as "returnId" from meds where route_return_id = any(${devolucoes}::text[])`,
    itemsByKey(sql, route, keys),
  ]);
  const charge = (row: ChargeRow): EngineCharge => ({
    id: row.id,
    status: row.status,
    amountCents: Number(row.amount),
    endToEndId: row.endToEndId,
    endedAt: row.endedAt,
    ...(row.dueDate ? { dueDate: true } : {}),
  });
  const byEndToEndId = new Map<string, EngineCharge>();
  const byTxid = new Map<string, EngineCharge>();
  for (const row of charges) {
    const found = charge(row);
    if (row.endToEndId !== null) byEndToEndId.set(row.endToEndId, found);
    if (row.txid !== null) byTxid.set(row.txid, found);
  }
  const ownRefunds = new Map<string, EngineRefund>([
    ...refunds.map((r) => [r.id, { id: r.id, status: r.status, amountCents: Number(r.amount), transactionId: r.transactionId }] as const),
    ...suspenseRefunds.map((r) => {
      // An item credited after its devolução from suspense failed (a pending one cannot be credited).
      const status = r.resolution.action === 'refund' ? r.resolution.refund.status : 'failed';
      return [r.id, { id: r.id, status, amountCents: Number(r.amount), transactionId: null }] as const;
    }),
  ]);
  const recorded = new Set(meds.map((med) => `${med.transactionId}\n${med.returnId}`));
  return {
    chargeOf: (pix) => byEndToEndId.get(pix.endToEndId) ?? (pix.txid === null ? null : (byTxid.get(pix.txid) ?? null)),
    refund: (devolucaoId) => {
      const id = engineIdOfDevolucao(devolucaoId);
      return id === null ? null : (ownRefunds.get(id) ?? null);
    },
    medRecorded: (transactionId, devolucaoId) => recorded.has(`${transactionId}\n${devolucaoId}`),
    item: (key) => items.get(key),
  };
}

export async function sentFacts(sql: Sql, route: string, envios: RouteSentRecord[], keys: string[]): Promise<SentFacts> {
  const ids = envios.map((envio) => transferIdOfIdEnvio(envio.idEnvio)).filter((id): id is string => id !== null);
  const [transfers, items] = await Promise.all([
    sql<{ id: string; status: EngineStatus; amount: bigint }[]>`
      select id, status, recipient_amount as amount from transactions
      where id = any(${ids}::text[]) and acquirer = ${route} and type = 'withdrawal'`,
    itemsByKey(sql, route, keys),
  ]);
  const byId = new Map(transfers.map((t) => [t.id, { id: t.id, status: t.status, amountCents: Number(t.amount) }]));
  return {
    transfer: (idEnvio) => {
      const id = transferIdOfIdEnvio(idEnvio);
      return id === null ? null : (byId.get(id) ?? null);
    },
    item: (key) => items.get(key),
  };
}
