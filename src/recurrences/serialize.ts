// A recurrence row as the public API and its events show it: amounts in reais, ISO dates.
import type { Static } from 'typebox';
import { centsToReais } from '../domain/money.js';
import { checkoutUrlOf } from '../domain/checkout-url.js';
import { saoPauloDate } from '../../contracts/calendar.js';
import { nextCycleDueDate } from './contract.js';
import type { RecurrenceRow } from './row.js';
import type { RecurrenceSchema } from './schema.js';

export type Recurrence = Static<typeof RecurrenceSchema>;

const reais = (cents: number | null) => (cents === null ? null : centsToReais(cents));

/** The next cycle's due date while the recurrence may still charge; null once it ended. */
function nextDueDate(row: RecurrenceRow, now: Date): string | null {
  if (row.status !== 'active' && row.status !== 'pending_authorization') return null;
  return nextCycleDueDate(row.firstDueDate, row.frequency, row.endDate, saoPauloDate(now));
}

export function serializeRecurrence(row: RecurrenceRow, now = new Date()): Recurrence {
  return {
    id: row.id,
    externalId: row.externalId,
    status: row.status,
    payer: row.payer,
    contract: row.contract,
    description: row.description,
    frequency: row.frequency,
    firstDueDate: row.firstDueDate,
    endDate: row.endDate,
    amount: reais(row.amountCents),
    minimumAmount: reais(row.minimumAmountCents),
    payerMaximumAmount: reais(row.payerMaximumAmountCents),
    retryPolicy: row.retryPolicy,
    authorization: {
      copyPaste: row.authorization.copyPaste,
      qrCodeBase64: row.authorization.qrCodeBase64,
      expiresAt: row.authorization.expiresAt.toISOString(),
    },
    firstPaymentTransactionId: row.firstPaymentTransactionId,
    checkoutUrl: checkoutUrlOf(row.checkoutToken),
    metadata: row.metadata,
    nextDueDate: nextDueDate(row, now),
    cancelledBy: row.cancelledBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    authorizedAt: row.authorizedAt?.toISOString() ?? null,
  };
}
