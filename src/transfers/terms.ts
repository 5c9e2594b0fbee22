// The account's rules for a transfer: withdrawals allowed, the amount at least the account's minimum
// and above the fee, and a destination that can still be paid (a BR Code of this engine's own charge
// makes the transfer internal). Each refusal is the spec's (src/domain/refusal.ts); the accept step
// (src/transactions/acceptance.ts) decides with them. The balance is checked by the reservation.
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import type { TransferAmounts } from '../domain/fees.js';
import { operationRefused, withdrawalsBlocked } from '../domain/refusal.js';
import { routeWithoutSend, type RouteSettings } from '../pix-routes/registry.js';
import { priceTransfer } from './amounts.js';
import type { TransferAsked, TransferDestination } from './contract.js';
import type { BrCodeDestination } from './destination.js';

export interface TransferTerms extends Omit<TransferAmounts, 'ok'> {
  amountCents: number;
  method: 'pix' | 'internal';
  /** The engine's own charge an internal transfer pays (absent or null when the transfer names none). */
  paysTransactionId?: string | null;
  /** The public `counterparty` of the transaction: the destination as resolved. */
  counterparty: Record<string, unknown>;
}

/** A route without a send API (a PSP route without `send`) refuses transfers before anything is reserved. */
export function checkRouteSends(config: RouteSettings, account: Account): void {
  if (routeWithoutSend(config, account.route)) throw operationRefused(`A rota Pix da conta (${account.route}) não envia transferências`);
}

/**
 * A BR Code of a pending charge of this engine makes the transfer internal (it pays that charge);
 * a code of a charge that can no longer be paid is refused before anything moves.
 */
async function ownChargePaid(sql: Sql | TxSql, destination: BrCodeDestination): Promise<string | null> {
  const [charge] = await sql<{ id: string; payable: boolean }[]>`
    select id, (status = 'pending' and expires_at > now()) as payable
    from transactions where pix_copy_paste = ${destination.code} and direction = 'in'
    limit 1`;
  if (!charge) return null;
  if (!charge.payable) throw operationRefused('Este BR Code não pode mais ser pago: a cobrança já foi paga, cancelada ou expirou');
  return charge.id;
}

function counterpartyOf(destination: TransferDestination, internal: boolean): Record<string, unknown> {
  if (destination.type === 'pix_key') return { type: 'pix_key', keyType: destination.keyType, key: destination.key };
  return {
    type: 'br_code',
    pixKey: destination.pixKey,
    url: destination.url,
    txid: destination.txid,
    merchantName: destination.merchantName,
    merchantCity: destination.merchantCity,
    internal,
  };
}

export async function transferTerms(sql: Sql | TxSql, account: Account, asked: TransferAsked): Promise<TransferTerms> {
  if (account.withdrawalsBlocked) throw withdrawalsBlocked();
  const { ok: _ok, ...amounts } = priceTransfer(asked, account);
  const paysTransactionId = asked.destination.type === 'br_code' ? await ownChargePaid(sql, asked.destination) : null;
  const internal = paysTransactionId !== null;
  return {
    ...amounts,
    method: internal ? 'internal' : 'pix',
    paysTransactionId,
    counterparty: counterpartyOf(asked.destination, internal),
  };
}
