// The data a transfer workflow carries (workflows/transfer.contract.ts names its input). Types only.
import type { RouteTransferRequest } from '../processors/types.js';
import type { Refusal } from '../../workflows/transaction.contract.js';
import type { DraftBasics } from '../transactions/draft.js';
import type { Transaction } from '../transactions/serialize.js';
import type { TransferDestination } from './destination.js';

/** What the client asked for, judged by the account's rules in the accept step (src/transfers/terms.ts). */
export interface TransferAsked {
  /** The amount the body sent, in centavos; null when omitted (allowed when the BR Code defines it). */
  amountCents: number | null;
  coverFee: boolean;
  destination: TransferDestination;
}

/**
 * A transfer as the API previewed it when the request came (what a 202 shows), and what the client
 * asked. The accept step prices `asked` again against the account as it is then.
 */
export interface TransferDraft extends DraftBasics {
  /** `internal` when the destination is a BR Code of a pending charge of this engine. */
  method: 'pix' | 'internal';
  debitedAmountCents: number;
  recipientAmountCents: number;
  /** What the route is asked to pay. */
  destination: RouteTransferRequest['destination'];
  /** The paying account: the transaction's `payer` (the route is told its name and document). */
  payer: { name: string; document: string; email: string };
  /** The public `counterparty` of the transaction: the destination as resolved. */
  counterparty: Record<string, unknown>;
  /** Absent in runs started before the accept step applied the account's rules (their API had applied them). */
  asked?: TransferAsked;
}

/** Why the accept step refused a transfer (nothing was persisted); runs accepted before refusals carried their answer gave a code. */
export type TransferRefusal = Refusal | 'WITHDRAWAL_IN_PROGRESS' | 'INSUFFICIENT_BALANCE' | 'WITHDRAWALS_BLOCKED' | 'ACCOUNT_UNAVAILABLE';

export type PersistedTransfer =
  /** `remote`: the transfer's route is reached over the network (a PSP); absent in runs recorded before it was said. */
  | { outcome: 'persisted'; transaction: Transaction; fingerprint: string; created: boolean; remote?: boolean }
  | { outcome: 'refused'; refusal: TransferRefusal };

/** A route's answer about a transfer, in a form that travels through Temporal (dates as ISO strings). */
export type RouteTransferState =
  | { status: 'pending' }
  | { status: 'approved'; settledAt: string }
  | { status: 'failed'; reason: string };
