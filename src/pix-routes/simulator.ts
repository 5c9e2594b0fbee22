// The built-in simulator of the Pix network behind the `simulator` route. It keeps its own state in
// PostgreSQL (simulator_charges), issues real BR Codes (EMV, CRC16) with a PNG QR code of exactly
// that string, and plays the payer's side through `payCharge` (the admin API and pixctl call it).
// A payment and a cancellation race on one row update each, so exactly one of them wins. A due-date
// charge (cobv) is issued without an amount in its code: the network asks the amount due on the day
// it is paid, as a PSP computes it for a cobv.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/database.js';
import { buildBrCode } from '../domain/brcode.js';
import { qrPngBase64 } from '../domain/qrcode.js';
import type { RouteChargeRequest, ChargeRoute, ChargeState, CreatedCharge, RoutePayer } from './types.js';
import type { DueDateBilling } from '../charges/contract.js';
import { saoPauloDate } from '../../contracts/calendar.js';
import { amountDueOn } from '../domain/amount-due.js';
import { isPastValidity, lastPayableDay } from '../domain/due-date-validity.js';

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
  /** postgres.js reads a `date` as the Date of its UTC midnight. */
  due_date: Date | null;
  billing: DueDateBilling | null;
  paid_amount: bigint | null;
  /** A cycle charge's debit attempts that failed for lack of funds, and the days the engine asked for the next ones. */
  declined_attempts: number;
  retry_requested_on: Date[];
}

/** The charge as the network sees it (what the payer's side is told). */
export interface NetworkCharge {
  txid: string;
  transactionId: string;
  /** The code's amount; a due-date charge's amount before its rules. */
  amountCents: number;
  /** A due-date charge's due date (`YYYY-MM-DD`), null for an immediate one. */
  dueDate: string | null;
  /** The last day a due-date charge can be paid; null for an immediate one. */
  lastPayableDay: string | null;
  /** What the payer paid. */
  paidAmountCents: number | null;
  createdAt: Date;
  copyPaste: string;
  status: 'active' | 'paid' | 'cancelled';
  expiresAt: Date;
  paidAt: Date | null;
  payer: RoutePayer | null;
}

export type NotPayableReason =
  | 'not_found'
  | 'already_paid'
  | 'cancelled'
  | 'expired'
  | 'past_validity'
  | 'amount_mismatch'
  /** The last attempt was declined and the engine has not asked for the next one yet. */
  | 'attempt_declined';

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
export function newTxid(): string {
  return randomBytes(16).toString('hex').slice(0, 25);
}

const dueTermsOf = (row: SimulatorChargeRow) =>
  row.due_date === null || row.billing === null ? null : { dueDate: row.due_date.toISOString().slice(0, 10), billing: row.billing };

function networkCharge(row: SimulatorChargeRow): NetworkCharge {
  const due = dueTermsOf(row);
  return {
    txid: row.txid,
    transactionId: row.transaction_id,
    amountCents: Number(row.amount),
    dueDate: due?.dueDate ?? null,
    lastPayableDay: due && lastPayableDay(due),
    paidAmountCents: row.paid_amount === null ? null : Number(row.paid_amount),
    createdAt: row.created_at,
    copyPaste: row.br_code,
    status: row.status,
    expiresAt: row.expires_at,
    paidAt: row.paid_at,
    payer: row.payer,
  };
}

function stateOf(row: SimulatorChargeRow): ChargeState {
  if (row.status === 'paid') {
    const paid = {
      status: 'paid' as const,
      paidAt: row.paid_at!,
      amountCents: Number(row.paid_amount ?? row.amount),
      payer: row.payer ?? {},
    };
    return row.end_to_end_id === null ? paid : { ...paid, endToEndId: row.end_to_end_id };
  }
  if (row.status === 'cancelled') return { status: 'cancelled', expired: row.cancel_reason === 'expired' };
  if (row.declined_attempts > row.retry_requested_on.length) return { status: 'declined', declined: row.declined_attempts };
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
    const { due } = request;
    const brCode = buildBrCode({
      pixKey: SIMULATOR_PIX_KEY,
      ...(due ? {} : { amountCents: request.amountCents }),
      txid,
      merchantName: request.merchantName,
      merchantCity: MERCHANT_CITY,
    });
    const qrCodeBase64 = await qrPngBase64(brCode);
    const [inserted] = await this.sql<SimulatorChargeRow[]>`
      insert into simulator_charges (txid, transaction_id, amount, br_code, qr_code_base64, expires_at, due_date, billing)
      values (${txid}, ${request.transactionId}, ${request.amountCents}, ${brCode}, ${qrCodeBase64}, ${request.expiresAt},
              ${due?.dueDate ?? null}, ${due ? this.sql.json(due.billing as never) : null})
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

  /** The payer's bank attempts the debit again on `day`; asked once per declined attempt. */
  async retryCycle(transactionId: string, day: string): Promise<void> {
    await this.sql`
      update simulator_charges set retry_requested_on = array_append(retry_requested_on, ${day}::date)
      where transaction_id = ${transactionId} and declined_attempts > cardinality(retry_requested_on)`;
  }
}

/**
 * The payer's bank fails this debit attempt for lack of funds (a cycle charge of a recurrence): once
 * per attempt, while the charge is active and the engine asked for every earlier retry.
 */
export async function declineCharge(sql: Sql, reference: string): Promise<NetworkCharge> {
  const [declined] = await sql<SimulatorChargeRow[]>`
    update simulator_charges set declined_attempts = declined_attempts + 1
    where (transaction_id = ${reference} or txid = ${reference}) and status = 'active' and expires_at > now()
      and declined_attempts = cardinality(retry_requested_on)
    returning *`;
  if (declined) return networkCharge(declined);
  const current = await findNetworkCharge(sql, reference);
  if (!current) throw new ChargeNotPayable('not_found');
  if (current.status === 'paid') throw new ChargeNotPayable('already_paid');
  if (current.status === 'cancelled') throw new ChargeNotPayable('cancelled');
  if (current.expiresAt.getTime() <= Date.now()) throw new ChargeNotPayable('expired');
  throw new ChargeNotPayable('attempt_declined');
}

/** Finds a charge of the network by the engine's transaction id or by the BR Code's txid. */
export async function findNetworkCharge(sql: Sql, reference: string): Promise<NetworkCharge | null> {
  const [row] = await sql<SimulatorChargeRow[]>`
    select * from simulator_charges where transaction_id = ${reference} or txid = ${reference}`;
  return row ? networkCharge(row) : null;
}

/** A payment as the payer's institution makes it. */
export interface NetworkPayment {
  payer: RoutePayer;
  /** The day (`YYYY-MM-DD`, São Paulo) a due-date charge is paid on, and priced for; default today. */
  paidOn?: string;
  /** What the payer sends, when the payment says (a transfer): it must be what the charge asks. */
  amountCents?: number;
}

/** What the charge asks on `day`: the code's amount, or a due-date charge's amount due that day. */
function amountAsked(row: SimulatorChargeRow, day: string): number {
  const due = dueTermsOf(row);
  if (!due) return Number(row.amount);
  if (isPastValidity(due, day)) throw new ChargeNotPayable('past_validity');
  return amountDueOn({ ...due, amountCents: Number(row.amount) }, day);
}

/**
 * The payer pays the charge on the network: what it asks (the whole BR Code amount, or a due-date
 * charge's amount due on the day), once, before it expires and unless the receiver cancelled it.
 * Throws ChargeNotPayable otherwise.
 */
export async function payCharge(sql: Sql, reference: string, payment: NetworkPayment): Promise<NetworkCharge> {
  const [found] = await sql<SimulatorChargeRow[]>`
    select * from simulator_charges where transaction_id = ${reference} or txid = ${reference}`;
  if (!found) throw new ChargeNotPayable('not_found');
  if (found.status === 'active') {
    const amountCents = amountAsked(found, payment.paidOn ?? saoPauloDate(new Date()));
    if (payment.amountCents !== undefined && payment.amountCents !== amountCents) throw new ChargeNotPayable('amount_mismatch');
    const [paid] = await sql<SimulatorChargeRow[]>`
      update simulator_charges
      set status = 'paid', paid_at = now(), paid_amount = ${amountCents}, payer = ${sql.json(payment.payer as Record<string, string>)},
          end_to_end_id = ${newEndToEndId(new Date())}
      where txid = ${found.txid} and status = 'active' and expires_at > now()
      returning *`;
    if (paid) return networkCharge(paid);
  }
  const current = await findNetworkCharge(sql, reference);
  if (!current) throw new ChargeNotPayable('not_found');
  if (current.status === 'paid') throw new ChargeNotPayable('already_paid');
  if (current.status === 'cancelled') throw new ChargeNotPayable('cancelled');
  throw new ChargeNotPayable('expired');
}
