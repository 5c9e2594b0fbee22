// The data a transfer workflow carries. Pure types only: the workflow bundle imports this file.
import type { TransferRequest } from '../processors/types.js';
import type { DraftBasics } from '../transactions/draft.js';
import type { Transaction } from '../transactions/serialize.js';

/** Everything needed to accept a transfer, computed and checked by the API before the workflow starts. */
export interface TransferDraft extends DraftBasics {
  /** `internal` when the destination is a BR Code of a pending charge of this engine. */
  method: 'pix' | 'internal';
  debitedAmountCents: number;
  recipientAmountCents: number;
  /** What the route is asked to pay. */
  destination: TransferRequest['destination'];
  /** The paying account: the transaction's `payer` (the network is told its name and document). */
  payer: { name: string; document: string; email: string };
  /** The public `counterparty` of the transaction: the destination as resolved. */
  counterparty: Record<string, unknown>;
}

export interface TransferWorkflowInput {
  /** The request that started the workflow: only its accept update is answered 201. */
  requestId: string;
  draft: TransferDraft;
}

/** Why the acceptance refused a transfer; nothing was persisted. */
export type TransferRefusal = 'WITHDRAWAL_IN_PROGRESS' | 'INSUFFICIENT_BALANCE' | 'WITHDRAWALS_BLOCKED' | 'ACCOUNT_UNAVAILABLE';

export type PersistedTransfer =
  | { outcome: 'persisted'; transaction: Transaction; fingerprint: string; created: boolean }
  | { outcome: 'refused'; refusal: TransferRefusal };

/** A route's answer about a transfer, in a form that travels through Temporal (dates as ISO strings). */
export type RouteTransferState =
  | { status: 'pending' }
  | { status: 'approved'; settledAt: string }
  | { status: 'failed'; reason: string };
