// The one table of the HTTP status the edge answers each refusal of the core with (src/domain/refusal.ts),
// from the spec's error table, a refusal a workflow recorded included (transactions/acceptance.ts).
import type { Refusal, RefusalCode, RefusalReason } from '../domain/refusal.js';

export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = {
  invalid_request: 400,
  idempotency_key_required: 400,
  invalid_idempotency_key: 400,
  idempotency_conflict: 409,
  account_unavailable: 403,
  kyc_required: 403,
  operation_refused: 422,
  WITHDRAWAL_IN_PROGRESS: 409,
  // The core's internal_error is "not now, repeat the request" (a 500 is the edge's own answer to a fault).
  internal_error: 503,
  SPLIT_INVALID: 400,
  SPLIT_RECIPIENT_INVALID: 400,
  SPLIT_TOO_MANY_RECIPIENTS: 400,
  SPLIT_RECIPIENT_NOT_FOUND: 404,
  SPLIT_RECIPIENT_SELF: 409,
  SPLIT_RECIPIENT_DUPLICATED: 409,
  SPLIT_EXCEEDS_SALE: 422,
  // Not in the spec's table: Pix Automático's, a recurrence whose status does not take the change.
  invalid_recurrence_status: 409,
};

/** Where the spec answers a code apart for one reason (`invalid_request`: "400 (and 423)"). */
export const REASON_STATUS: Readonly<Record<RefusalReason, number>> = {
  withdrawals_blocked: 423,
};

export function refusalStatus(refusal: Pick<Refusal, 'code' | 'details'>): number {
  const { reason } = refusal.details;
  return reason === undefined ? REFUSAL_STATUS[refusal.code] : REASON_STATUS[reason];
}
