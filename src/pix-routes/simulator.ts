// The built-in simulator of the Pix network behind the `simulator` route. It keeps its own state in
// PostgreSQL (simulator_charges), issues real BR Codes (EMV, CRC16) with a PNG QR code of exactly
// that string, and plays the payer's side through `payCharge` (the admin API and pixctl call it).
// A payment and a cancellation race on one row update each, so exactly one of them wins.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/database.js';
import { buildBrCode } from '../domain/brcode.js';
import { qrPngBase64 } from '../domain/qrcode.js';
import type { RouteChargeRequest, ChargeRoute, ChargeState, CreatedCharge, RoutePayer } from './types.js';

export const SIMULATOR_ROUTE = 'simulator';

/** The Pix key (a random key, DICT form) under which the simulated network receives the engine's charges. */
const SIMULATOR_PIX_KEY = '5f8e2f6c-1d4b-4c8e-9a57-3b2e7c9d0a41';
const MERCHANT_CITY = 'SAO PAULO';

interface SimulatorChargeRow {
  txid: string;
  transaction_id: string;
  amount: bigint;
  br_code: string;
  qr_code_base64: string;
  status: 'active' | 'paid' | 'cancelled';
  expires_at: Date;
  payer: RoutePayer | null;
  paid_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: 'expired' | 'other' | null;
  /** The Pix that paid it. */
  end_to_end_id: string | null;
  created_at: Date;
}

/** The charge as the network sees it (what the payer's side is told). */
export interface NetworkCharge {
  txid: string;
  transactionId: string;
  amountCents: number;
  copyPaste: string;
  status: 'active' | 'paid' | 'cancelled';
  expiresAt: Date;
  paidAt: Date | null;
  payer: RoutePayer | null;
}

export type NotPayableReason = 'not_found' | 'already_paid' | 'cancelled' | 'expired';

/** The network refuses the payment, as a payer's bank app would show it. */
export class ChargeNotPayable extends Error {
  override readonly name = 'ChargeNotPayable';
  constructor(readonly reason: NotPayableReason) {
    super(`charge not payable: ${reason}`);
  }
}

/** The network's end-to-end id of a Pix: E, an 8-digit ISPB, the date and a random part (32 characters). */
export function newEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 12);
  return `E00000000${stamp}${randomBytes(6).toString('hex').slice(0, 11)}`;
}

/** BR Code txid: 25 characters of [A-Za-z0-9], the most a static code carries. */
function newTxid(): string {
  return randomBytes(16).toString('hex').slice(0, 25);
}

function networkCharge(row: SimulatorChargeRow): NetworkCharge {
  return {
    txid: row.txid,
    transactionId: row.transaction_id,
    amountCents: Number(row.amount),
    copyPaste: row.br_code,
    status: row.status,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
    payer: row.payer,
  };
}

function stateOf(row: SimulatorChargeRow): ChargeState {
  if (row.status === 'paid') {
    const paid = { status: 'paid' as const, paidAt: row.paid_at!, amountCents: Number(row.amount), payer: row.payer ?? {} };
    return row.end_to_end_id === null ? paid : { ...paid, endToEndId: row.end_to_end_id };
  }
  if (row.status === 'cancelled') return { status: 'cancelled', expired: row.cancel_reason === 'expired' };
  return { status: 'pending' };
}

export class SimulatorChargeRoute implements ChargeRoute {
  readonly name = SIMULATOR_ROUTE;
  readonly remote = false;

  constructor(private readonly sql: Sql) {}

  private async existing(transactionId: string): Promise<SimulatorChargeRow> {
    const [row] = await this.sql<SimulatorChargeRow[]>`select * from simulator_charges where transaction_id = ${transactionId}`;
    if (!row) throw new Error(`simulator: no charge for ${transactionId}`);
    return row;
  }

  /** Issues the charge once: a repeated request (same transaction) gets the code issued first. */
  async createCharge(request: RouteChargeRequest): Promise<CreatedCharge> {
    const txid = newTxid();
    const brCode = buildBrCode({
      pixKey: SIMULATOR_PIX_KEY,
      amountCents: request.amountCents,
      txid,
      merchantName: request.merchantName,
      merchantCity: MERCHANT_CITY,
    });
    const qrCodeBase64 = await qrPngBase64(brCode);
    const [inserted] = await this.sql<SimulatorChargeRow[]>`
      insert into simulator_charges (txid, transaction_id, amount, br_code, qr_code_base64, expires_at)
      values (${txid}, ${request.transactionId}, ${request.amountCents}, ${brCode}, ${qrCodeBase64}, ${request.expiresAt})
      on conflict (transaction_id) do nothing
      returning *`;
    const row = inserted ?? (await this.existing(request.transactionId));
    return { routeRef: row.txid, copyPaste: row.br_code, qrCodeBase64: row.qr_code_base64 };
  }

  async chargeStatus(transactionId: string): Promise<ChargeState> {
    return stateOf(await this.existing(transactionId));
  }

  async cancelCharge(transactionId: string, reason: 'expired' | 'other'): Promise<ChargeState> {
    const [cancelled] = await this.sql<SimulatorChargeRow[]>`
      update simulator_charges set status = 'cancelled', cancelled_at = now(), cancel_reason = ${reason}
      where transaction_id = ${transactionId} and status = 'active'
      returning *`;
    return stateOf(cancelled ?? (await this.existing(transactionId)));
  }
}

/** Finds a charge of the network by the engine's transaction id or by the BR Code's txid. */
export async function findNetworkCharge(sql: Sql, reference: string): Promise<NetworkCharge | null> {
  const [row] = await sql<SimulatorChargeRow[]>`
    select * from simulator_charges where transaction_id = ${reference} or txid = ${reference}`;
  return row ? networkCharge(row) : null;
}

/**
 * The payer pays the charge on the network: the whole BR Code amount, once, before it expires and
 * unless the receiver cancelled it. Throws ChargeNotPayable otherwise.
 */
export async function payCharge(sql: Sql, reference: string, payer: RoutePayer): Promise<NetworkCharge> {
  const [paid] = await sql<SimulatorChargeRow[]>`
    update simulator_charges
    set status = 'paid', paid_at = now(), payer = ${sql.json(payer as Record<string, string>)}, end_to_end_id = ${newEndToEndId(new Date())}
    where (transaction_id = ${reference} or txid = ${reference}) and status = 'active' and expires_at > now()
    returning *`;
  if (paid) return networkCharge(paid);
  const current = await findNetworkCharge(sql, reference);
  if (!current) throw new ChargeNotPayable('not_found');
  if (current.status === 'paid') throw new ChargeNotPayable('already_paid');
  if (current.status === 'cancelled') throw new ChargeNotPayable('cancelled');
  throw new ChargeNotPayable('expired');
}
