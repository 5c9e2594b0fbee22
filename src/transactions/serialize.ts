// A transaction row as the public API and webhooks show it: every field of the spec present,
// amounts in reais, dates in ISO 8601 UTC with milliseconds.
import { centsToReais } from '../domain/money.js';
import type { SplitShare } from '../../contracts/charge.contract.js';
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

export function serializeTransaction(row: TransactionRow): Transaction {
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
    splitAmount: centsToReais(row.splitAmountCents),
    split: row.split.map(serializeShare),
    refundedAmount: centsToReais(row.refundedAmountCents),
    payer: serializePayer(row.payer),
    counterparty: row.counterparty,
    pix:
      row.pixCopyPaste !== null && row.pixQrCodeBase64 !== null ? { copyPaste: row.pixCopyPaste, qrCodeBase64: row.pixQrCodeBase64 } : null,
    expiresAt: row.expiresAt.toISOString(),
    approvedAt: iso(row.approvedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
