// What may be refunded of a charge (books.md, "Refunds"): an approved (or partly refunded) charge,
// within 90 days of its approval, up to what was received minus the refunds approved or pending and
// what MEDs returned. Judged in the accept step with the charge's row locked, so that two refunds of
// one charge are judged one after the other and never refund more than was received.
import type { TxSql } from '../db/database.js';
import { formatReais } from '../domain/money.js';
import { operationRefused } from '../domain/refusal.js';

/** The standard's window for a devolução: 90 days after the Pix was received. */
export const REFUND_WINDOW_DAYS = 90;

export interface RefundableCharge {
  accountId: string;
  route: string;
  endToEndId: string | null;
  refundableCents: number;
}

/** Locks the charge and answers what is refundable of it, or throws the refusal naming why nothing is. */
export async function refundableCharge(tx: TxSql, transactionId: string): Promise<RefundableCharge> {
  const [charge] = await tx<
    {
      accountId: string;
      route: string;
      endToEndId: string | null;
      type: string;
      status: string;
      amount: bigint;
      returned: bigint;
      withinWindow: boolean;
    }[]
  >`
    select account_id as "accountId", acquirer as route, end_to_end_id as "endToEndId", type, status, coalesce(paid_amount, amount) as amount,
           refunded_amount as returned, approved_at + make_interval(days => ${REFUND_WINDOW_DAYS}) >= now() as "withinWindow"
    from transactions where id = ${transactionId} for update`;
  if (!charge || charge.type !== 'payment' || charge.status !== 'approved') {
    const what = !charge || charge.type !== 'payment' ? 'não é uma cobrança' : `está ${charge.status}`;
    throw operationRefused(`Só uma cobrança aprovada (ou parcialmente devolvida) pode ser devolvida; esta transação ${what}`);
  }
  if (!charge.withinWindow)
    throw operationRefused(`O prazo de devolução (${REFUND_WINDOW_DAYS} dias desde a aprovação da cobrança) terminou`);
  // refunded_amount holds what approved refunds and accepted MEDs returned.
  const [pending] = await tx<{ sum: bigint }[]>`
    select coalesce(sum(amount), 0)::bigint as sum from refunds where transaction_id = ${transactionId} and status = 'pending'`;
  const refundableCents = Number(charge.amount - charge.returned - pending!.sum);
  return { accountId: charge.accountId, route: charge.route, endToEndId: charge.endToEndId, refundableCents };
}

/** The amount to refund: the one asked for, or all that is refundable; refused when it is more than that. */
export function refundAmount(askedCents: number | null, refundableCents: number): number {
  if (refundableCents <= 0)
    throw operationRefused('Nada a devolver: o valor recebido já foi devolvido (devoluções aprovadas ou pendentes e MEDs)');
  if (askedCents !== null && askedCents > refundableCents) {
    throw operationRefused(
      `Valor excede o devolvível: ${formatReais(refundableCents)} (o recebido menos as devoluções aprovadas ou pendentes e o que MEDs devolveram)`,
    );
  }
  return askedCents ?? refundableCents;
}
