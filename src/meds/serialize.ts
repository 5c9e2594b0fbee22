// A MED as the public API, MCP and the med.* webhooks show it: reais and ISO dates.
import { centsToReais } from '../domain/money.js';
import type { MedRow } from './row.js';
import type { Med } from './schema.js';

export type { Med };

export function serializeMed(row: MedRow): Med {
  return {
    id: row.id,
    transactionId: row.transactionId,
    externalId: row.externalId,
    status: row.status,
    reason: row.reason,
    amount: centsToReais(row.amountCents),
    retainedAmount: centsToReais(row.retainedAmountCents),
    returnedAmount: centsToReais(row.returnedAmountCents),
    deadlineAt: row.deadlineAt.toISOString(),
    overdue: row.overdue,
    decidedAt: row.decidedAt === null ? null : row.decidedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
