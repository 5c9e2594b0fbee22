// The payer's page of a recurrence's authorization (Pix Automático): what the payer authorizes (the
// frequency, the amount or its floor, the first due date, the end, the retry policy, a first payment
// paid with the authorization in journey 3), the authorization's code and its expiry. Built from the
// recurrence's row; its payer, contract and ids stay out.
import type { RecurrenceFrequency, RecurrenceStatus, RetryPolicy } from '../../recurrences/contract.js';
import type { RecurrenceRow } from '../../recurrences/row.js';
import type { AuthorizationState, AuthorizationView } from './view.js';

export interface AuthorizationTerms {
  frequency: RecurrenceFrequency;
  /** A fixed amount: every cycle's; null for a variable one. */
  amountCents: number | null;
  /** A variable amount: the least a cycle charges; null for a fixed one. */
  minimumAmountCents: number | null;
  /** The most a cycle may charge, as the payer set it when authorizing (variable amounts). */
  payerMaximumAmountCents: number | null;
  firstDueDate: string;
  /** Null: until either side cancels. */
  endDate: string | null;
  retryPolicy: RetryPolicy;
  /** Journey 3: paid now, with the same code that authorizes; null in journey 2. */
  firstPaymentCents: number | null;
}

export const AUTHORIZATION_STATE_OF_STATUS: Record<RecurrenceStatus, AuthorizationState> = {
  pending_authorization: 'pending',
  active: 'authorized',
  rejected: 'rejected',
  expired: 'expired',
  cancelled: 'cancelled',
  completed: 'completed',
};

export function authorizationView(row: RecurrenceRow, merchantName: string): AuthorizationView {
  return {
    kind: 'recurrence',
    merchantName,
    description: row.description,
    copyPaste: row.authorization.copyPaste,
    qrPngBase64: row.authorization.qrCodeBase64,
    expiresAt: row.authorization.expiresAt,
    state: AUTHORIZATION_STATE_OF_STATUS[row.status],
    terms: {
      frequency: row.frequency,
      amountCents: row.amountCents,
      minimumAmountCents: row.minimumAmountCents,
      payerMaximumAmountCents: row.payerMaximumAmountCents,
      firstDueDate: row.firstDueDate,
      endDate: row.endDate,
      retryPolicy: row.retryPolicy,
      firstPaymentCents: row.firstPaymentAmountCents,
    },
  };
}
