// What the engine needs from a Pix route. An adapter of a real provider's Pix API implements the
// same interfaces as the built-in simulator; the account's `route` names which one.
// Amounts are integer centavos; dates are Date objects.

import { ROUTE_REFUSED } from '../../contracts/transaction.contract.js';
import type { DueDateTerms } from '../charges/contract.js';
import type { RecurrenceTerms } from '../recurrences/contract.js';

export interface RoutePayer {
  name?: string;
  document?: string;
  email?: string;
  /** Filled by the payer's institution when the route tells us. */
  bankName?: string;
  state?: string;
}

export interface RouteChargeRequest {
  transactionId: string;
  amountCents: number; // what the payer pays
  merchantName: string;
  description: string | null;
  expiresAt: Date;
  /** The payer the charge names, when it names one (a PSP puts name and document in the charge). */
  payer?: RoutePayer;
  /**
   * A due-date charge (the standard's cobv): the route takes its due date and rules and computes what
   * is due on the day it is paid; `amountCents` is then the amount before them, and `expiresAt` the end of its validity.
   */
  due?: DueDateTerms;
  /** A recurrence's cycle charge (Pix Automático), which `due` then dates: a PSP keeps it as a cobr. */
  cycle?: RouteCycle;
}

/** A cycle charge's recurrence: the engine's id, and the route's (a PSP's idRec; null on the simulator). */
export interface RouteCycle {
  recurrenceId: string;
  recurrenceRef: string | null;
}

/** A due-date charge as a route asks for it after its creation: its amount before the rules, and the rules. */
export interface RouteDueDateCharge extends DueDateTerms {
  amountCents: number;
  /** A recurrence's cycle charge. */
  cycle?: RouteCycle;
}

export interface CreatedCharge {
  /** The route's identifier of the charge (the BR Code's txid for the simulator). */
  routeRef: string;
  copyPaste: string;
  /** PNG, base64, without a `data:` prefix. */
  qrCodeBase64: string;
}

export type ChargeState =
  | { status: 'pending' }
  /** `amountCents`: what the payer paid (a due-date charge's amount due on the day it was paid). */
  | { status: 'paid'; paidAt: Date; amountCents: number; payer: RoutePayer; endToEndId?: string }
  | { status: 'cancelled'; expired: boolean }
  /** A cycle charge (Pix Automático) whose last debit attempt failed for lack of funds, no retry asked yet. */
  | { status: 'declined'; declined: number }
  /** A cycle charge the route ended unpaid with no attempt left (a PSP's cobr REJEITADA). */
  | { status: 'failed' };

export interface RouteTransferRequest {
  transactionId: string;
  amountCents: number;
  destination: { type: 'pix_key' | 'pix_copy_paste' | 'qr_code'; value: string; keyType?: string };
  description: string | null;
  /** Who pays, as the route tells the Pix network (the receiver of a paid charge sees it). */
  payer?: RoutePayer;
}

export type TransferState =
  | { status: 'pending'; routeRef: string }
  | { status: 'approved'; routeRef: string; settledAt: Date; counterparty?: Record<string, unknown> }
  | { status: 'failed'; routeRef: string; reason: string };

/**
 * A devolução of a received Pix that the route reports as a MED (nature MED_OPERACIONAL, MED_FRAUDE or MED_PIX_AUTOMATICO):
 * the route already returned the money to the payer.
 */
export interface RouteMedReturn {
  /** The route's id of the devolução: a MED is recorded once per id. */
  id: string;
  nature: string;
  amountCents: number;
  returnedAt: Date;
}

/** The charge side of a Pix route. Every call is idempotent by `transactionId`: repeating it returns the same answer. */
export interface ChargeRoute {
  readonly name: string;
  /**
   * True for a route reached over the network (a PSP): its creation call runs as a regular activity with
   * its own timeouts and retries, and the charge workflow polls it while the charge is pending.
   */
  readonly remote: boolean;
  createCharge(request: RouteChargeRequest): Promise<CreatedCharge>;
  /** `due`: the charge is a due-date one (a PSP keeps it apart, as a cobv). */
  chargeStatus(transactionId: string, due?: RouteDueDateCharge): Promise<ChargeState>;
  /** Cancels a pending charge. When the payment won the race the answer says `paid`, and that answer prevails. */
  cancelCharge(transactionId: string, reason: 'expired' | 'other', due?: RouteDueDateCharge): Promise<ChargeState>;
  /** A cycle charge's next debit attempt on `day` (`YYYY-MM-DD`) after a declined one (routes without recurrences leave this out). */
  retryCycle?(transactionId: string, day: string): Promise<void>;
  /** The MED devoluções of the received Pix `endToEndId` (routes that never report any leave this out). */
  medReturns?(endToEndId: string): Promise<RouteMedReturn[]>;
}

/** A recurrence as a route creates it (Pix Automático): what the payer authorizes in their bank's app. */
export interface RouteRecurrenceRequest extends RecurrenceTerms {
  recurrenceId: string;
  /** Journey 3: the immediate charge paid with the authorization, already created at the route. */
  firstPaymentTransactionId: string | null;
}

export interface CreatedRecurrence {
  /** The route's id of the recurrence (a PSP's idRec). */
  routeRef: string;
  /** The authorization's BR Code (journey 3: the combined code of the first payment and the recurrence). */
  copyPaste: string;
}

/** The payer's answer as the route knows it. `cancelled.by`: who ended an authorized (or pending) recurrence. */
export type RouteRecurrenceState =
  | { status: 'pending' }
  | { status: 'authorized' }
  | { status: 'rejected' }
  | { status: 'expired' }
  | { status: 'cancelled'; by: 'merchant' | 'payer' | 'route' };

/** The recurrence side of a remote route (the simulator's payer is driven by its admin operations instead). */
export interface RecurrenceRoute {
  readonly name: string;
  createRecurrence(request: RouteRecurrenceRequest): Promise<CreatedRecurrence>;
  recurrenceStatus(routeRef: string): Promise<RouteRecurrenceState>;
  /** Cancels it at the route; when the payer answered first, the answer says so, and that answer prevails. */
  cancelRecurrence(routeRef: string): Promise<RouteRecurrenceState>;
}

/** The transfer side of a Pix route. */
export interface TransferRoute {
  readonly name: string;
  /** As ChargeRoute.remote: the send call runs as a regular activity and the workflow polls the route. */
  readonly remote: boolean;
  sendTransfer(request: RouteTransferRequest): Promise<TransferState>;
  transferStatus(transactionId: string): Promise<TransferState>;
}

/**
 * A refusal that retrying cannot change (the route said no, as opposed to being unreachable). It
 * reaches the workflow as a failure of type RouteRefused, which the transaction activities' retry
 * policy does not retry, and the operation ends as `failed`.
 */
export class RouteRefused extends Error {
  override readonly name = ROUTE_REFUSED;
}
