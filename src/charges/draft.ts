// The data a charge workflow carries. Pure types only: the workflow bundle imports this file.
import type { RoutePayer } from '../processors/types.js';
import type { DraftBasics } from '../transactions/draft.js';
import type { StoredSplitShare } from '../transactions/row.js';

/** Everything needed to persist a charge, computed and checked by the API before the workflow starts. */
export interface ChargeDraft extends DraftBasics {
  merchantName: string;
  /** What the payer pays. */
  amountCents: number;
  splitAmountCents: number;
  split: StoredSplitShare[];
  payer: { name: string; document: string; email?: string };
  webhookUrl: string | null;
}

export interface ChargeWorkflowInput {
  /** The request that started the workflow: only its accept update is answered 201. */
  requestId: string;
  ttlSeconds: number;
  draft: ChargeDraft;
}

/** A route's answer about a charge, in a form that travels through Temporal (dates as ISO strings). */
export type RouteChargeState =
  | { status: 'pending' }
  | { status: 'paid'; paidAt: string; amountCents: number; payer: RoutePayer }
  | { status: 'cancelled'; expired: boolean };

export type PaidAtRoute = Extract<RouteChargeState, { status: 'paid' }>;
