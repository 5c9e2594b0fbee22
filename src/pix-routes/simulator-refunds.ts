// The refund side of the built-in Pix network simulator (`simulator` route): a devolução asked for is
// at the network at once (pending); it settles by itself after `settleAfterMs` (approved), or only
// through `completeRefund` (the admin API) when `settleAfterMs` is -1.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/database.js';
import { SIMULATOR_ROUTE } from './simulator.js';
import type { RefundRoute, RefundState, RouteRefundRequest } from './refund-route.js';

interface SimulatorRefundRow {
  refund_id: string;
  return_id: string;
  status: 'pending' | 'approved' | 'failed';
  reason: string | null;
  settled_at: Date | null;
}

/** The network's id of a devolução: D, an 8-digit ISPB, the date and a random part (32 characters). */
function newReturnId(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 12);
  return `D00000000${stamp}${randomBytes(6).toString('hex').slice(0, 11)}`;
}

function stateOf(row: SimulatorRefundRow): RefundState {
  if (row.status === 'approved') return { status: 'approved', routeRef: row.return_id, settledAt: row.settled_at! };
  if (row.status === 'failed') return { status: 'failed', routeRef: row.return_id, reason: row.reason ?? 'refused' };
  return { status: 'pending', routeRef: row.return_id };
}

export class SimulatorRefundRoute implements RefundRoute {
  readonly name = SIMULATOR_ROUTE;
  readonly remote = false;

  constructor(
    private readonly sql: Sql,
    /** ms after which a pending devolução settles by itself as approved; -1: only through completeRefund. */
    private readonly settleAfterMs: number,
  ) {}

  async sendRefund(request: RouteRefundRequest): Promise<RefundState> {
    await this.sql`
      insert into simulator_refunds (refund_id, return_id, amount, end_to_end_id)
      values (${request.refundId}, ${newReturnId(new Date())}, ${request.amountCents}, ${request.endToEndId})
      on conflict do nothing`;
    return this.refundStatus(request);
  }

  async refundStatus({ refundId }: RouteRefundRequest): Promise<RefundState> {
    if (this.settleAfterMs >= 0) {
      const [settled] = await this.sql<SimulatorRefundRow[]>`
        update simulator_refunds set status = 'approved', settled_at = now()
        where refund_id = ${refundId} and status = 'pending' and created_at + ${this.settleAfterMs} * interval '1 millisecond' <= now()
        returning *`;
      if (settled) return stateOf(settled);
    }
    const [row] = await this.sql<SimulatorRefundRow[]>`select * from simulator_refunds where refund_id = ${refundId}`;
    if (!row) throw new Error(`simulator: no devolução for ${refundId}`);
    return stateOf(row);
  }
}

/** The devolução is not pending at the network: unknown there, or already settled (`status`). */
export class RefundNotPending extends Error {
  constructor(readonly status: 'not_found' | 'approved' | 'failed') {
    super(`devolução ${status}`);
  }
}

/** The operator plays the network: a pending devolução settles with `outcome`. */
export async function completeRefund(sql: Sql, refundId: string, outcome: 'approved' | 'failed'): Promise<void> {
  const [done] = await sql`
    update simulator_refunds set status = ${outcome}, settled_at = now(), reason = ${outcome === 'failed' ? 'failed_by_operator' : null}
    where refund_id = ${refundId} and status = 'pending'
    returning 1`;
  if (done) return;
  const [row] = await sql<{ status: 'approved' | 'failed' }[]>`select status from simulator_refunds where refund_id = ${refundId}`;
  throw new RefundNotPending(row ? row.status : 'not_found');
}
