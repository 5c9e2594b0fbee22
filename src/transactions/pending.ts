// A transaction as known before its workflow persisted it: the row a 202 shows while the accept step
// is still running. Charges and transfers fill in what is their own.
import type { DraftBasics } from '../../contracts/transaction.contract.js';
import type { TransactionRow } from './row.js';

export type DraftSpecifics = Pick<
  TransactionRow,
  | 'direction'
  | 'type'
  | 'method'
  | 'debitedAmountCents'
  | 'recipientAmountCents'
  | 'splitAmountCents'
  | 'split'
  | 'payer'
  | 'counterparty'
  | 'webhookUrl'
> &
  /** A due-date charge's: null otherwise. */
  Partial<Pick<TransactionRow, 'dueDate' | 'billing' | 'feeRule' | 'expiresAt' | 'recurrenceId'>>;

/** Pending, created now, expiring `expirySeconds` from now unless the specifics say when. */
export function pendingTransaction(draft: DraftBasics, expirySeconds: number, specifics: DraftSpecifics): TransactionRow {
  const now = new Date();
  return {
    id: draft.transactionId,
    accountId: draft.accountId,
    externalId: draft.externalId,
    status: 'pending',
    expired: false,
    processingState: 'monitoring',
    route: draft.route,
    amountCents: draft.amountCents,
    feeCents: draft.feeCents,
    netAmountCents: draft.netAmountCents,
    description: draft.description,
    metadata: draft.metadata ?? {},
    pixCopyPaste: null,
    pixQrCodeBase64: null,
    fingerprint: draft.fingerprint,
    apiKeyId: draft.apiKeyId,
    routeRef: null,
    refundedAmountCents: 0,
    paidAmountCents: null,
    checkoutToken: null,
    dueDate: null,
    billing: null,
    feeRule: null,
    recurrenceId: null,
    expiresAt: new Date(now.getTime() + expirySeconds * 1000),
    approvedAt: null,
    createdAt: now,
    updatedAt: now,
    ...specifics,
  };
}
