// A transaction row as the public API and webhooks show it: every field of the spec present,
// amounts in reais, dates in ISO 8601 UTC with milliseconds.
import { centsToReais } from '../domain/money.js';
import type { BillingValue, DueDateBilling, SplitShare } from '../charges/contract.js';
import { saoPauloDate } from '../../contracts/calendar.js';
import { amountDueOn } from '../domain/amount-due.js';
import { isPastValidity } from '../domain/due-date-validity.js';
import { checkoutUrlOf } from '../domain/checkout-url.js';
import type { StoredPayer, TransactionRow } from './row.js';
import type { Transaction } from './schema.js';

export type { Transaction };

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function serializePayer(payer: StoredPayer): Transaction['payer'] {
  return {
    name: payer.name,
    document: payer.document,
    email: payer.email ?? null,
    ...(payer.bankName ? { bankName: payer.bankName } : {}),
    ...(payer.state ? { state: payer.state } : {}),
  };
}

const serializeShare = (share: SplitShare): Transaction['split'][number] => ({
  recipient: share.recipient,
  accountId: share.accountId,
  amount: centsToReais(share.amountCents),
  percent: share.percent,
  description: share.description,
});

/** Centavos and hundredths of a percent alike become the decimal sent: 150 is 1.5 (reais or percent). */
const billingValue = <M extends string>({ mode, value }: BillingValue<M>) => ({ mode, value: centsToReais(value) });

function serializeBilling(billing: DueDateBilling): NonNullable<Transaction['billing']> {
  return {
    validityAfterDue: billing.validityAfterDue,
    fine: billing.fine && billingValue(billing.fine),
    interest: billing.interest && billingValue(billing.interest),
    discounts: billing.discounts.map((discount) => ({ until: discount.until, ...billingValue(discount) })),
    abatement: billing.abatement && billingValue(billing.abatement),
  };
}

/** A pending due-date charge's amount due today in São Paulo; null for any other, or once its validity is over. */
function amountDueToday(row: TransactionRow, now: Date): number | null {
  if (row.status !== 'pending' || row.dueDate === null || row.billing === null) return null;
  const terms = { dueDate: row.dueDate, billing: row.billing };
  const today = saoPauloDate(now);
  return isPastValidity(terms, today) ? null : centsToReais(amountDueOn({ ...terms, amountCents: row.amountCents }, today));
}

/** What the payer paid; charges approved before it was recorded paid their amount. */
function paidAmount(row: TransactionRow): number | null {
  if (row.paidAmountCents !== null) return centsToReais(row.paidAmountCents);
  const paid = row.type === 'payment' && (row.status === 'approved' || row.status === 'refunded');
  return paid ? centsToReais(row.amountCents) : null;
}

export function serializeTransaction(row: TransactionRow, now = new Date()): Transaction {
  return {
    id: row.id,
    externalId: row.externalId,
    acquirer: row.route,
    direction: row.direction,
    type: row.type,
    method: row.method,
    status: row.status,
    expired: row.expired,
    processingState: row.processingState,
    amount: centsToReais(row.amountCents),
    fee: centsToReais(row.feeCents),
    netAmount: centsToReais(row.netAmountCents),
    debitedAmount: row.debitedAmountCents === null ? null : centsToReais(row.debitedAmountCents),
    recipientAmount: row.recipientAmountCents === null ? null : centsToReais(row.recipientAmountCents),
    description: row.description,
    metadata: row.metadata,
    splitAmount: centsToReais(row.splitAmountCents),
    split: row.split.map(serializeShare),
    refundedAmount: centsToReais(row.refundedAmountCents),
    payer: serializePayer(row.payer),
    counterparty: row.counterparty,
    pix:
      row.pixCopyPaste !== null && row.pixQrCodeBase64 !== null ? { copyPaste: row.pixCopyPaste, qrCodeBase64: row.pixQrCodeBase64 } : null,
    expiresAt: row.expiresAt.toISOString(),
    approvedAt: iso(row.approvedAt),
    dueDate: row.dueDate,
    billing: row.billing && serializeBilling(row.billing),
    amountDue: amountDueToday(row, now),
    paidAmount: paidAmount(row),
    checkoutUrl: row.checkoutToken === null ? null : checkoutUrlOf(row.checkoutToken),
    recurrenceId: row.recurrenceId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
