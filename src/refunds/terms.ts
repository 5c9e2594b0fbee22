// What may be refunded of a charge (books.md, "Refunds"): an approved (or partly refunded) charge,
// within 90 days of its approval, up to what is left of its return budget (src/returns/budget.ts: the
// Pix received minus refunds approved or pending and what MEDs retain or returned). Judged in the
// accept step with the charge's row locked, so that a refund and any other return of the same Pix
// are judged one after the other and never return more than was received.
import type { TxSql } from '../db/database.js';
import { formatReais } from '../domain/money.js';
import { operationRefused } from '../domain/refusal.js';
import { describeLeft, lockReturnBudget, type ReturnBudget } from '../returns/budget.js';

/** The standard's window for a devolução: 90 days after the Pix was received. */
export const REFUND_WINDOW_DAYS = 90;

export interface RefundableCharge {
  accountId: string;
  route: string;
  endToEndId: string | null;
  budget: ReturnBudget;
}

/** Locks the charge's return budget and answers what is refundable of it, or throws the refusal naming why nothing is. */
export async function refundableCharge(tx: TxSql, transactionId: string): Promise<RefundableCharge> {
  const budget = await lockReturnBudget(tx, transactionId);
  if (!budget || budget.type !== 'payment' || budget.status !== 'approved') {
    const what = !budget || budget.type !== 'payment' ? 'não é uma cobrança' : `está ${budget.status}`;
    throw operationRefused(`Só uma cobrança aprovada (ou parcialmente devolvida) pode ser devolvida; esta transação ${what}`);
  }
  if (budget.approvedAgeSeconds === null || budget.approvedAgeSeconds > REFUND_WINDOW_DAYS * 86_400)
    throw operationRefused(`O prazo de devolução (${REFUND_WINDOW_DAYS} dias desde a aprovação da cobrança) terminou`);
  return { accountId: budget.accountId, route: budget.route, endToEndId: budget.endToEndId, budget };
}

/** The amount to refund: the one asked for, or all that is left of the budget; refused when it is more than that. */
export function refundAmount(askedCents: number | null, budget: ReturnBudget): number {
  if (budget.leftCents <= 0)
    throw operationRefused(`Nada a devolver: o valor recebido já foi devolvido ou está em devolução (${describeLeft(budget)})`);
  if (askedCents !== null && askedCents > budget.leftCents) {
    throw operationRefused(`Valor excede o devolvível: ${formatReais(budget.leftCents)} (${describeLeft(budget)})`);
  }
  return askedCents ?? budget.leftCents;
}
