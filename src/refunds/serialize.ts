// A refund as the admin API, pixctl and the refund.* webhooks show it: reais and ISO dates.
import { centsToReais } from '../domain/money.js';
import type { RefundRow } from './row.js';
import type { Refund } from './schema.js';

export function serializeRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    transactionId: row.transactionId,
    amount: centsToReais(row.amountCents),
    reason: row.reason,
    status: row.status,
    failureReason: row.failureReason,
    endToEndId: row.endToEndId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    settledAt: row.settledAt === null ? null : row.settledAt.toISOString(),
  };
}
