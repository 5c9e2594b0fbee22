// The data a charge workflow carries (workflows/charge.contract.ts names its input). Types only.
import type { RoutePayer } from '../processors/types.js';
import type { Refusal } from '../../workflows/transaction.contract.js';
import type { DraftBasics } from '../transactions/draft.js';
import type { StoredSplitShare } from '../transactions/row.js';
import type { Transaction } from '../transactions/serialize.js';
import type { SplitRequestItem } from './schema.js';

/** What the client asked for, judged by the account's rules in the accept step (src/charges/terms.ts). */
export interface ChargeAsked {
  amountCents: number;
  coverFee: boolean;
  split: SplitRequestItem[];
}

/**
 * A charge as the API previewed it when the request came (what a 202 shows), and what the client
 * asked. The accept step prices `asked` again against the account as it is then.
 */
export interface ChargeDraft extends DraftBasics {
  merchantName: string;
  /** What the payer pays. */
  amountCents: number;
  splitAmountCents: number;
  split: StoredSplitShare[];
  payer: { name: string; document: string; email?: string };
  webhookUrl: string | null;
  /** Absent in runs started before the accept step applied the account's rules (their API had applied them). */
  asked?: ChargeAsked;
}

/** The accept step's answer: the persisted charge (new, or the key's existing one), or the refusal. */
export type PersistedCharge =
  | {
      transaction: Transaction;
      fingerprint: string;
      /** False when the row already existed (a retried activity, or a later run for the same key). */
      created: boolean;
      /** The charge's route is reached over the network (a PSP); absent in runs recorded before it was said. */
      remote?: boolean;
    }
  | { refusal: Refusal };

/** A route's answer about a charge, in a form that travels through Temporal (dates as ISO strings). */
export type RouteChargeState =
  | { status: 'pending' }
  | { status: 'paid'; paidAt: string; amountCents: number; payer: RoutePayer; endToEndId?: string }
  | { status: 'cancelled'; expired: boolean };

export type PaidAtRoute = Extract<RouteChargeState, { status: 'paid' }>;
