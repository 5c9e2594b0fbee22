// A row of the `recurrences` read model as the code sees it: centavos as numbers, camelCase.
import type { Metadata } from '../transactions/metadata.js';
import type { CancelledBy, RecurrenceFrequency, RecurrenceStatus, RecurrenceTerms, RetryPolicy } from './contract.js';

export interface RecurrenceRow extends RecurrenceTerms {
  id: string;
  accountId: string;
  externalId: string;
  status: RecurrenceStatus;
  payerMaximumAmountCents: number | null;
  authorization: { copyPaste: string; qrCodeBase64: string; expiresAt: Date };
  firstPaymentAmountCents: number | null;
  firstPaymentTransactionId: string | null;
  cancelledBy: CancelledBy | null;
  route: string;
  /** The route's id of the recurrence (a PSP's `idRec`); null on the simulator. */
  routeRef: string | null;
  webhookUrl: string | null;
  metadata: Metadata;
  /** The payer's page token of the authorization (src/domain/checkout-token.ts). */
  checkoutToken: string;
  fingerprint: string;
  apiKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
  authorizedAt: Date | null;
}

export interface RawRecurrenceRow {
  id: string;
  account_id: string;
  external_id: string;
  status: string;
  payer: { name: string; document: string };
  contract: string;
  description: string;
  frequency: string;
  /** postgres.js reads a `date` as the Date of its UTC midnight. */
  first_due_date: Date;
  end_date: Date | null;
  amount: bigint | null;
  minimum_amount: bigint | null;
  payer_maximum_amount: bigint | null;
  retry_policy: string;
  authorization_copy_paste: string;
  authorization_qr_code_base64: string;
  authorization_expires_at: Date;
  first_payment_amount: bigint | null;
  first_payment_transaction_id: string | null;
  cancelled_by: string | null;
  route: string;
  /** Absent from rows read before migration 320. */
  route_ref?: string | null;
  webhook_url: string | null;
  /** Absent from rows read before migration 310. */
  metadata?: Metadata;
  checkout_token: string;
  fingerprint: string;
  api_key_id: string | null;
  created_at: Date;
  updated_at: Date;
  authorized_at: Date | null;
}

const cents = (value: bigint | null) => (value === null ? null : Number(value));
const day = (value: Date | null) => (value === null ? null : value.toISOString().slice(0, 10));

export function toRecurrenceRow(raw: RawRecurrenceRow): RecurrenceRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    externalId: raw.external_id,
    status: raw.status as RecurrenceStatus,
    payer: raw.payer,
    contract: raw.contract,
    description: raw.description,
    frequency: raw.frequency as RecurrenceFrequency,
    firstDueDate: day(raw.first_due_date)!,
    endDate: day(raw.end_date),
    amountCents: cents(raw.amount),
    minimumAmountCents: cents(raw.minimum_amount),
    payerMaximumAmountCents: cents(raw.payer_maximum_amount),
    retryPolicy: raw.retry_policy as RetryPolicy,
    authorization: {
      copyPaste: raw.authorization_copy_paste,
      qrCodeBase64: raw.authorization_qr_code_base64,
      expiresAt: raw.authorization_expires_at,
    },
    firstPaymentAmountCents: cents(raw.first_payment_amount),
    firstPaymentTransactionId: raw.first_payment_transaction_id,
    cancelledBy: raw.cancelled_by as CancelledBy | null,
    route: raw.route,
    routeRef: raw.route_ref ?? null,
    webhookUrl: raw.webhook_url,
    metadata: raw.metadata ?? {},
    checkoutToken: raw.checkout_token,
    fingerprint: raw.fingerprint,
    apiKeyId: raw.api_key_id,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    authorizedAt: raw.authorized_at,
  };
}
