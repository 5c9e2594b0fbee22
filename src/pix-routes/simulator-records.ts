// The simulator's own records (RouteRecords), as a PSP's lists give them: the Pix the simulated network
// received — charges it saw paid and Pix no charge asked for — each with its devoluções, and the
// transfers it was asked to send, in time order, a page at a time (each page read from an index after
// the last row of the one before, so a day of a million Pix is never held at once).
import type { Sql } from '../db/database.js';
import { SIMULATOR_ROUTE } from './simulator.js';
import type { RouteReceivedRecord, RouteRecords, RouteRefundRecord, RouteSentRecord } from './route-records.js';
import type { RoutePayer } from './types.js';

export const SIMULATOR_RECORDS_PAGE = 1000;

type NetworkStatus = 'pending' | 'approved' | 'failed';

const REFUND_STATUS = { pending: 'EM_PROCESSAMENTO', approved: 'DEVOLVIDO', failed: 'NAO_REALIZADO' } as const;
const ENVIO_STATUS = { pending: 'EM_PROCESSAMENTO', approved: 'REALIZADO', failed: 'NAO_REALIZADO' } as const;

/** The route's id of an engine operation: its id without the `_` (`rfd_…` → `rfd…`), as a PSP is given it. */
const routeIdOf = (engineId: string) => engineId.replace('_', '');

interface ReceivedRow {
  endToEndId: string;
  txid: string | null;
  amount: bigint;
  payer: RoutePayer | null;
  at: Date;
  /** `at` as PostgreSQL writes it (microseconds), to resume after this row. */
  cursor: string;
}

interface RefundRow {
  refundId: string;
  returnId: string;
  endToEndId: string;
  amount: bigint;
  nature: RouteRefundRecord['nature'];
  status: NetworkStatus;
  reason: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

interface SentRow {
  transactionId: string;
  endToEndId: string;
  amount: bigint;
  status: NetworkStatus;
  at: Date;
  cursor: string;
}

interface Cursor {
  cursor: string;
  key: string;
}

export class SimulatorRecords implements RouteRecords {
  readonly name = SIMULATOR_ROUTE;

  constructor(
    private readonly sql: Sql,
    private readonly pageSize = SIMULATOR_RECORDS_PAGE,
  ) {}

  async *received(from: Date, to: Date): AsyncIterable<RouteReceivedRecord[]> {
    for (let after: Cursor | null = null; ;) {
      const rows = await this.receivedPage(from, to, after);
      if (rows.length === 0) return;
      const refunds = await this.refundsOf(rows.map((row) => row.endToEndId));
      yield rows.map((row) => ({
        endToEndId: row.endToEndId,
        txid: row.txid,
        amountCents: Number(row.amount),
        at: row.at,
        payer: { name: row.payer?.name ?? null, document: row.payer?.document ?? null },
        refunds: refunds.get(row.endToEndId) ?? [],
      }));
      if (rows.length < this.pageSize) return;
      const last = rows.at(-1)!;
      after = { cursor: last.cursor, key: last.endToEndId };
    }
  }

  async *sent(from: Date, to: Date): AsyncIterable<RouteSentRecord[]> {
    for (let after: Cursor | null = null; ;) {
      const rows: SentRow[] = await this.sql<SentRow[]>`
        select transaction_id as "transactionId", end_to_end_id as "endToEndId", amount, status, created_at as at, created_at::text as cursor
        from simulator_transfers
        where created_at >= ${from} and created_at < ${to} and ${this.after('created_at', 'end_to_end_id', after)}
        order by created_at, end_to_end_id
        limit ${this.pageSize}`;
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        idEnvio: routeIdOf(row.transactionId),
        endToEndId: row.endToEndId,
        amountCents: Number(row.amount),
        status: ENVIO_STATUS[row.status],
        at: row.at,
      }));
      if (rows.length < this.pageSize) return;
      const last = rows.at(-1)!;
      after = { cursor: last.cursor, key: last.endToEndId };
    }
  }

  private after(time: string, key: string, after: Cursor | null) {
    return after ? this.sql`(${this.sql(time)}, ${this.sql(key)}) > (${after.cursor}::timestamptz, ${after.key})` : this.sql`true`;
  }

  /** A page of both kinds of received Pix, merged in time order (each read from its own index). */
  private receivedPage(from: Date, to: Date, after: Cursor | null): Promise<ReceivedRow[]> {
    return this.sql<ReceivedRow[]>`
      select * from (
        (select end_to_end_id as "endToEndId", txid, amount, payer, paid_at as at, paid_at::text as cursor
         from simulator_charges
         where status = 'paid' and paid_at >= ${from} and paid_at < ${to} and ${this.after('paid_at', 'end_to_end_id', after)}
         order by paid_at, end_to_end_id
         limit ${this.pageSize})
        union all
        (select end_to_end_id, txid, amount, payer, received_at, received_at::text as cursor
         from simulator_received_pix
         where received_at >= ${from} and received_at < ${to} and ${this.after('received_at', 'end_to_end_id', after)}
         order by received_at, end_to_end_id
         limit ${this.pageSize})
      ) received
      order by at, "endToEndId"
      limit ${this.pageSize}`;
  }

  private async refundsOf(endToEndIds: string[]): Promise<Map<string, RouteRefundRecord[]>> {
    const rows = await this.sql<RefundRow[]>`
      select refund_id as "refundId", return_id as "returnId", end_to_end_id as "endToEndId", amount, nature, status, reason,
             created_at as "createdAt", settled_at as "settledAt"
      from simulator_refunds
      where end_to_end_id = any(${endToEndIds}::text[])
      order by created_at, refund_id`;
    const byPix = new Map<string, RouteRefundRecord[]>();
    for (const row of rows) {
      const refunds = byPix.get(row.endToEndId) ?? [];
      refunds.push({
        id: routeIdOf(row.refundId),
        rtrId: row.returnId,
        amountCents: Number(row.amount),
        nature: row.nature,
        status: REFUND_STATUS[row.status],
        reason: row.reason,
        requestedAt: row.createdAt,
        settledAt: row.settledAt,
      });
      byPix.set(row.endToEndId, refunds);
    }
    return byPix;
  }
}
