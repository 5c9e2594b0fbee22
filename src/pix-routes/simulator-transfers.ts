// The transfer side of the built-in Pix network simulator (`simulator` route). It accepts what a real
// network would accept and refuses what cannot exist: a key outside the DICT formats, an invalid BR
// Code, a code whose amount differs from what is sent, a one-time code already paid. A BR Code of a
// charge issued by this network is paid on the spot (the receiver's side learns it through the
// `onChargePaid` notification); any other transfer settles by itself after `settleAfterMs` (approved;
// in the hand-over's answer when it is 0), or only through `completeTransfer` (the admin API) when
// `settleAfterMs` is -1.
import type { Sql } from '../db/database.js';
import { parseBrCode } from '../domain/brcode.js';
import { isPixKeyType, validatePixKey } from '../domain/pix-keys.js';
import { ChargeNotPayable, findNetworkCharge, newEndToEndId, payCharge, SIMULATOR_ROUTE, type NetworkCharge } from './simulator.js';
import type { RouteTransferRequest, TransferRoute, TransferState } from './types.js';

interface SimulatorTransferRow {
  end_to_end_id: string;
  transaction_id: string;
  amount: bigint;
  destination: RouteTransferRequest['destination'];
  one_time_code: string | null;
  paid_charge_txid: string | null;
  status: 'pending' | 'approved' | 'failed';
  reason: string | null;
  created_at: Date;
  settled_at: Date | null;
}

function stateOf(row: SimulatorTransferRow): TransferState {
  if (row.status === 'approved') return { status: 'approved', routeRef: row.end_to_end_id, settledAt: row.settled_at! };
  if (row.status === 'failed') return { status: 'failed', routeRef: row.end_to_end_id, reason: row.reason ?? 'refused' };
  return { status: 'pending', routeRef: row.end_to_end_id };
}

/** What the network decides about a destination before it moves any money. */
type Verdict =
  { kind: 'refused'; reason: string } | { kind: 'key' } | { kind: 'code'; oneTimeCode: string | null; chargeTxid: string | null };

export interface SimulatorTransferOptions {
  /** ms after which a pending transfer settles by itself as approved; -1: only through completeTransfer. */
  settleAfterMs: number;
  /** The network tells the receiving side that one of its charges was paid. */
  onChargePaid: (charge: NetworkCharge) => Promise<void>;
}

export class SimulatorTransferRoute implements TransferRoute {
  readonly name = SIMULATOR_ROUTE;
  readonly remote = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: SimulatorTransferOptions,
  ) {}

  private async byTransaction(transactionId: string): Promise<SimulatorTransferRow | null> {
    const [row] = await this.sql<SimulatorTransferRow[]>`select * from simulator_transfers where transaction_id = ${transactionId}`;
    return row ?? null;
  }

  private async verdict(request: RouteTransferRequest): Promise<Verdict> {
    const { type, value, keyType } = request.destination;
    if (type === 'pix_key') {
      const key = validatePixKey(value, isPixKeyType(keyType) ? keyType : undefined);
      return key.ok ? { kind: 'key' } : { kind: 'refused', reason: 'invalid_pix_key' };
    }
    const code = parseBrCode(value);
    if (!code.ok) return { kind: 'refused', reason: 'invalid_br_code' };
    if (code.amountCents !== null && code.amountCents !== request.amountCents) return { kind: 'refused', reason: 'amount_mismatch' };
    const [charge] = await this.sql<
      { txid: string }[]
    >`select txid from simulator_charges where br_code = ${value.trim()} and txid = ${code.txid}`;
    return { kind: 'code', oneTimeCode: code.static ? null : value.trim(), chargeTxid: charge?.txid ?? null };
  }

  private async insert(request: RouteTransferRequest, fields: Partial<SimulatorTransferRow>): Promise<SimulatorTransferRow | null> {
    const [row] = await this.sql<SimulatorTransferRow[]>`
      insert into simulator_transfers (end_to_end_id, transaction_id, amount, destination, one_time_code, paid_charge_txid, status, reason, settled_at)
      values (${newEndToEndId(new Date())}, ${request.transactionId}, ${request.amountCents}, ${this.sql.json(request.destination)},
              ${fields.one_time_code ?? null}, ${fields.paid_charge_txid ?? null}, ${fields.status ?? 'pending'}, ${fields.reason ?? null},
              ${fields.status && fields.status !== 'pending' ? new Date() : null})
      on conflict do nothing
      returning *`;
    return row ?? null;
  }

  private refuse(request: RouteTransferRequest, reason: string) {
    return this.insert(request, { status: 'failed', reason });
  }

  async sendTransfer(request: RouteTransferRequest): Promise<TransferState> {
    const verdict = await this.verdict(request);
    if (verdict.kind === 'key') {
      // Nothing inserted: the transfer is at the network already (a repeated call), as it is.
      const row = await this.insert(request, { status: this.handOverStatus() });
      return stateOf(row ?? (await this.byTransaction(request.transactionId))!);
    }
    const existing = await this.byTransaction(request.transactionId);
    if (existing) {
      // A repeated call after a crash: the receiver may not have heard of the payment yet.
      if (existing.paid_charge_txid !== null) await this.notifyChargePaid(existing.paid_charge_txid);
      return stateOf(existing);
    }
    let row: SimulatorTransferRow | null;
    if (verdict.kind === 'refused') row = await this.refuse(request, verdict.reason);
    else if (verdict.chargeTxid !== null) row = await this.payNetworkCharge(request, verdict.chargeTxid);
    else {
      row = await this.insert(request, { one_time_code: verdict.oneTimeCode, status: this.handOverStatus() });
      // Nothing inserted and no row of ours: another transfer holds this one-time code.
      if (!row && !(await this.byTransaction(request.transactionId))) row = await this.refuse(request, 'already_paid');
    }
    return stateOf(row ?? (await this.byTransaction(request.transactionId))!);
  }

  /** With no delay the network settles in the hand-over itself, as it does a devolução. */
  private handOverStatus(): 'approved' | 'pending' {
    return this.options.settleAfterMs === 0 ? 'approved' : 'pending';
  }

  /**
   * Pays a charge this network issued and records the transfer in one database transaction (a
   * retried call finds the record instead of a charge "already paid"), then tells the receiver.
   */
  private async payNetworkCharge(request: RouteTransferRequest, txid: string): Promise<SimulatorTransferRow | null> {
    let row: SimulatorTransferRow | null;
    try {
      row = await this.sql.begin(async (tx) => {
        const network = new SimulatorTransferRoute(tx as unknown as Sql, this.options);
        await payCharge(network.sql, txid, { payer: request.payer ?? {}, amountCents: request.amountCents });
        return network.insert(request, { status: 'approved', paid_charge_txid: txid });
      });
    } catch (err) {
      if (err instanceof ChargeNotPayable) return this.refuse(request, err.reason);
      throw err;
    }
    await this.notifyChargePaid(txid);
    return row;
  }

  private async notifyChargePaid(txid: string): Promise<void> {
    const charge = await findNetworkCharge(this.sql, txid);
    if (charge) await this.options.onChargePaid(charge);
  }

  async transferStatus(transactionId: string): Promise<TransferState> {
    const delayMs = this.options.settleAfterMs;
    if (delayMs >= 0) {
      const [settled] = await this.sql<SimulatorTransferRow[]>`
        update simulator_transfers set status = 'approved', settled_at = now()
        where transaction_id = ${transactionId} and status = 'pending' and created_at + ${delayMs} * interval '1 millisecond' <= now()
        returning *`;
      if (settled) return stateOf(settled);
    }
    const row = await this.byTransaction(transactionId);
    if (!row) throw new Error(`simulator: no transfer for ${transactionId}`);
    return stateOf(row);
  }
}

export class TransferNotPending extends Error {
  override readonly name = 'TransferNotPending';
  constructor(readonly status: 'approved' | 'failed' | 'not_found') {
    super(`transfer not pending at the network: ${status}`);
  }
}

/** The network settles a pending transfer as the operator says (the admin API's simulator call). */
export async function completeTransfer(sql: Sql, transactionId: string, outcome: 'approved' | 'failed'): Promise<TransferState> {
  const [row] = await sql<SimulatorTransferRow[]>`
    update simulator_transfers set status = ${outcome}, settled_at = now(), reason = ${outcome === 'failed' ? 'failed_by_operator' : null}
    where transaction_id = ${transactionId} and status = 'pending'
    returning *`;
  if (row) return stateOf(row);
  const [current] = await sql<SimulatorTransferRow[]>`select * from simulator_transfers where transaction_id = ${transactionId}`;
  throw new TransferNotPending(current ? (current.status as 'approved' | 'failed') : 'not_found');
}
