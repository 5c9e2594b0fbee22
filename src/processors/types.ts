// What the engine needs from a Pix processing route. A real processor adapter (a PSP's Pix API)
// implements the same interface as the built-in simulator; the account's `route` names which one.
// Amounts are integer centavos; dates are Date objects.

export interface RoutePayer {
  name?: string;
  document?: string;
  email?: string;
  /** Filled by the payer's institution when the network tells us. */
  bankName?: string;
  state?: string;
}

export interface ChargeRequest {
  transactionId: string;
  amountCents: number; // what the payer pays
  merchantName: string;
  description: string | null;
  expiresAt: Date;
}

export interface CreatedCharge {
  /** The route's identifier of the charge (the BR Code's txid for the simulator). */
  processorRef: string;
  copyPaste: string;
  /** PNG, base64, without a `data:` prefix. */
  qrCodeBase64: string;
}

export type ChargeState =
  | { status: 'pending' }
  | { status: 'paid'; paidAt: Date; amountCents: number; payer: RoutePayer }
  | { status: 'cancelled'; expired: boolean };

export interface TransferRequest {
  transactionId: string;
  amountCents: number;
  destination: { type: 'pix_key' | 'pix_copy_paste' | 'qr_code'; value: string; keyType?: string };
  description: string | null;
  /** Who pays, as the paying institution tells the network (the receiver of a paid charge sees it). */
  payer?: RoutePayer;
}

export type TransferState =
  | { status: 'pending'; processorRef: string }
  | { status: 'approved'; processorRef: string; settledAt: Date; counterparty?: Record<string, unknown> }
  | { status: 'failed'; processorRef: string; reason: string };

/** The charge side of a Pix route. Every call is idempotent by `transactionId`: repeating it returns the same answer. */
export interface ChargeRoute {
  readonly name: string;
  createCharge(request: ChargeRequest): Promise<CreatedCharge>;
  chargeStatus(transactionId: string): Promise<ChargeState>;
  /** Cancels a pending charge. When the payment won the race the answer says `paid`, and that answer prevails. */
  cancelCharge(transactionId: string, reason: 'expired' | 'other'): Promise<ChargeState>;
}

/** The transfer side of a Pix route. */
export interface TransferRoute {
  readonly name: string;
  sendTransfer(request: TransferRequest): Promise<TransferState>;
  transferStatus(transactionId: string): Promise<TransferState>;
}

/** A complete Pix processor adapter. */
export interface PixProcessor extends ChargeRoute, TransferRoute {}

/** The failure type a route's refusal travels under through Temporal. */
export const ROUTE_REFUSED = 'RouteRefused';

/**
 * A refusal that retrying cannot change (the route said no, as opposed to being unreachable):
 * activities turn it into a non-retryable failure and the operation ends as `failed`.
 */
export class RouteRefused extends Error {
  override readonly name = ROUTE_REFUSED;
}

