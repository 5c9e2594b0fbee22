// The refund workflow's contract: what src/ starts it with and tells it (besides the `accept` update
// every transaction workflow answers, transaction.contract.ts), what its activities answer, and what it
// answers. One workflow per refund, id `refund:<accountId>:<idempotency key>` (the charge's account).
import type { RouteState, TransactionState } from '../../contracts/transaction.contract.js';

/** A refund as the admin API asked for it; the accept step judges it against the charge as it is then. */
export interface RefundDraft {
  refundId: string;
  /** The refunded charge (txn_…). */
  transactionId: string;
  accountId: string;
  /** The idempotency key. */
  externalId: string;
  /** Hex SHA-256 of the fields the idempotency rules compare. */
  fingerprint: string;
  /** Centavos asked for; null: all that is still refundable when the accept step runs. */
  amountCents: number | null;
  reason: string | null;
}

export interface RefundWorkflowInput {
  /** The request that started the workflow: only its accept update is answered 201. */
  requestId: string;
  draft: RefundDraft;
}

/** A route's answer about a refund. */
export type RouteRefundState = RouteState;

/** The settled refund (`id` rfd_…); null when the accept step refused it (nothing was kept). */
export type RefundWorkflow = (input: RefundWorkflowInput) => Promise<TransactionState | null>;
export const REFUND_WORKFLOW = 'refundWorkflow';

export const refundWorkflowId = (accountId: string, key: string): string => `refund:${accountId}:${key}`;
