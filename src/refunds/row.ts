// A refund as the code sees it (centavos as numbers), mapped from `refunds`. Pure types and mapping only.
export const REFUND_STATUSES = ['pending', 'approved', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export interface RefundRow {
  id: string;
  accountId: string;
  transactionId: string;
  idempotencyKey: string;
  fingerprint: string;
  route: string;
  amountCents: number;
  reason: string | null;
  status: RefundStatus;
  failureReason: string | null;
  endToEndId: string | null;
  createdAt: Date;
  updatedAt: Date;
  settledAt: Date | null;
}

export interface RawRefundRow {
  id: string;
  account_id: string;
  transaction_id: string;
  idempotency_key: string;
  fingerprint: string;
  route: string;
  amount: bigint;
  reason: string | null;
  status: string;
  failure_reason: string | null;
  end_to_end_id: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

export function toRefundRow(raw: RawRefundRow): RefundRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    transactionId: raw.transaction_id,
    idempotencyKey: raw.idempotency_key,
    fingerprint: raw.fingerprint,
    route: raw.route,
    amountCents: Number(raw.amount),
    reason: raw.reason,
    status: raw.status as RefundStatus,
    failureReason: raw.failure_reason,
    endToEndId: raw.end_to_end_id,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    settledAt: raw.settled_at,
  };
}
