// Money returned of a charge goes back to whoever paid it. When the payer was another account of this
// engine (an internal transfer paid the charge's BR Code, transfers/terms.ts), the return reaches that
// account: the Pix clearing it was sent to credits the paying account as an approved deposit, in the
// same PostgreSQL transaction that settles the return. A charge paid from outside needs nothing here:
// the payer's institution receives the devolução.
import { createHash } from 'node:crypto';
import type { TxSql } from '../db/database.js';
import { platformAccount } from '../ledger/accounts.js';
import { recordDeposit } from '../transactions/deposit.js';

interface PayingTransfer {
  id: string;
  accountId: string;
  route: string;
}

/** The internal transfer that paid the charge, if one did. */
async function payingTransfer(tx: TxSql, chargeId: string): Promise<PayingTransfer | null> {
  const [transfer] = await tx<PayingTransfer[]>`
    select id, account_id as "accountId", acquirer as route from transactions
    where pays_transaction_id = ${chargeId} and type = 'withdrawal' and status <> 'failed'
    order by status = 'approved' desc, created_at
    limit 1`;
  return transfer ?? null;
}

export const returnDepositIdOf = (returnId: string): string =>
  `txn_${createHash('sha256').update(`returned\n${returnId}`).digest('hex').slice(0, 24)}`;

/**
 * Credits `amountCents` of the return `returnId` (a refund's or a MED's id, once each) to the account
 * whose internal transfer paid the charge; the event to dispatch, or none when the payer is outside.
 */
export async function returnToInternalPayer(
  tx: TxSql,
  charge: { id: string; accountId: string },
  returnId: string,
  amountCents: number,
): Promise<string[]> {
  if (amountCents <= 0) return [];
  const transfer = await payingTransfer(tx, charge.id);
  if (!transfer) return [];
  const id = returnDepositIdOf(returnId);
  const [seller] = await tx<{ name: string; document: string }[]>`select name, document from accounts where id = ${charge.accountId}`;
  const { eventId } = await recordDeposit(tx, {
    id,
    accountId: transfer.accountId,
    externalId: returnId,
    method: 'internal',
    route: transfer.route,
    amountCents,
    description: `Devolução ${returnId} da cobrança ${charge.id}, paga pela transferência ${transfer.id}`,
    payer: { name: seller?.name ?? '', document: seller?.document ?? '' },
    endToEndId: null,
    from: platformAccount('pix_clearing', id),
    postingDescription: `Depósito ${id}: devolução ${returnId} da cobrança ${charge.id} à conta que a pagou`,
  });
  return [eventId];
}
