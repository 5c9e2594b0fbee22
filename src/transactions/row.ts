// A row of the `transactions` read model as the code sees it: centavos as numbers, camelCase.
// Pure types and mapping only (no I/O), so workflows and activities can share them.
import type { DueDateBilling, SplitShare } from '../charges/contract.js';
import type { FeeRule } from '../accounts/account.js';
import type { Counterparty } from './schema.js';

export const TRANSACTION_STATUSES = ['pending', 'approved', 'failed', 'cancelled', 'refunded'] as const;
export const TRANSACTION_TYPES = ['payment', 'deposit', 'withdrawal', 'internal_transfer'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** The payer as stored in `transactions.payer` (jsonb); `bankName` and `state` come from the payer's institution. */
export interface StoredPayer {
  name: string;
  document: string;
  email?: string | null;
  bankName?: string | null;
  state?: string | null;
}

export interface TransactionRow {
  id: string;
  accountId: string;
  externalId: string;
  direction: 'in' | 'out';
  type: TransactionType;
  method: 'pix' | 'internal';
  status: TransactionStatus;
  expired: boolean;
  processingState: string;
  /** The Pix route (column `acquirer`). */
  route: string;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  debitedAmountCents: number | null;
  recipientAmountCents: number | null;
  splitAmountCents: number;
  split: SplitShare[];
  description: string | null;
  /** The client's key-value pairs; {} when none was sent. */
  metadata: Record<string, string>;
  payer: StoredPayer;
  counterparty: Counterparty | null;
  pixCopyPaste: string | null;
  pixQrCodeBase64: string | null;
  webhookUrl: string | null;
  fingerprint: string;
  apiKeyId: string | null;
  /** The route's own reference (column `processor_ref`). */
  routeRef: string | null;
  refundedAmountCents: number;
  /** A due-date charge's due date (`YYYY-MM-DD`, America/Sao_Paulo); null for an immediate charge or a transfer. */
  dueDate: string | null;
  /** A due-date charge's rules; null with `dueDate`. */
  billing: DueDateBilling | null;
  /** A due-date charge's fee rule as the account had it when the charge was accepted: applied to the paid amount. */
  feeRule: FeeRule | null;
  /** What the payer paid (set at approval; null when not recorded: an approved charge then paid its amount). */
  paidAmountCents: number | null;
  /** A charge's payer's page token (src/domain/checkout-token.ts); null on transfers and deposits. */
  checkoutToken: string | null;
  /** A recurrence's cycle charge (Pix Automático): its recurrence; null otherwise. */
  recurrenceId: string | null;
  expiresAt: Date;
  approvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns as the `postgres` driver returns them (`select * from transactions`). */
export interface RawTransactionRow {
  id: string;
  account_id: string;
  external_id: string;
  direction: string;
  type: string;
  method: string;
  status: string;
  expired: boolean;
  processing_state: string;
  acquirer: string;
  amount: bigint;
  fee: bigint;
  net_amount: bigint;
  debited_amount: bigint | null;
  recipient_amount: bigint | null;
  split_amount: bigint;
  split: unknown;
  description: string | null;
  metadata: Record<string, string>;
  payer: unknown;
  counterparty: unknown;
  pix_copy_paste: string | null;
  pix_qr_code_base64: string | null;
  webhook_url: string | null;
  fingerprint: string;
  api_key_id: string | null;
  processor_ref: string | null;
  refunded_amount: bigint;
  /** postgres.js reads a `date` as the Date of its UTC midnight. */
  due_date: Date | null;
  billing: unknown;
  fee_rule: unknown;
  paid_amount: bigint | null;
  checkout_token: string | null;
  /** Absent from rows read before migration 300. */
  recurrence_id?: string | null;
  expires_at: Date;
  approved_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const nullableNumber = (value: bigint | null) => (value === null ? null : Number(value));

export function toTransactionRow(raw: RawTransactionRow): TransactionRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    externalId: raw.external_id,
    direction: raw.direction as TransactionRow['direction'],
    type: raw.type as TransactionType,
    method: raw.method as TransactionRow['method'],
    status: raw.status as TransactionStatus,
    expired: raw.expired,
    processingState: raw.processing_state,
    route: raw.acquirer,
    amountCents: Number(raw.amount),
    feeCents: Number(raw.fee),
    netAmountCents: Number(raw.net_amount),
    debitedAmountCents: nullableNumber(raw.debited_amount),
    recipientAmountCents: nullableNumber(raw.recipient_amount),
    splitAmountCents: Number(raw.split_amount),
    split: (raw.split ?? []) as SplitShare[],
    description: raw.description,
    metadata: raw.metadata ?? {},
    payer: raw.payer as StoredPayer,
    counterparty: (raw.counterparty ?? null) as Counterparty | null,
    pixCopyPaste: raw.pix_copy_paste,
    pixQrCodeBase64: raw.pix_qr_code_base64,
    webhookUrl: raw.webhook_url,
    fingerprint: raw.fingerprint,
    apiKeyId: raw.api_key_id,
    routeRef: raw.processor_ref,
    refundedAmountCents: Number(raw.refunded_amount),
    dueDate: raw.due_date === null ? null : raw.due_date.toISOString().slice(0, 10),
    billing: (raw.billing ?? null) as DueDateBilling | null,
    feeRule: (raw.fee_rule ?? null) as FeeRule | null,
    paidAmountCents: nullableNumber(raw.paid_amount),
    checkoutToken: raw.checkout_token ?? null,
    recurrenceId: raw.recurrence_id ?? null,
    expiresAt: raw.expires_at,
    approvedAt: raw.approved_at,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
  };
}
