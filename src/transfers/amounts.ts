// The amounts of a transfer request against the account's limits and fees, and the fields the
// idempotency rules compare (spec rule 6: amount, destination type and value, key type,
// description, coverFee, and metadata when sent).
import { comparedMetadata } from '../transactions/metadata.js';
import type { Account } from '../accounts/account.js';
import { transferAmounts, type TransferAmounts } from '../domain/fees.js';
import { formatReais } from '../domain/money.js';
import { invalidRequest } from '../domain/refusal.js';
import { comparedDestination } from './destination.js';
import type { TransferAsked } from './contract.js';
import type { TransferRequest } from './schema.js';

/** What the transfer sends: a BR Code's own amount prevails; otherwise the body's `amount`. */
export function requestedAmountCents(request: TransferAsked): number | null {
  return (request.destination.type === 'br_code' ? request.destination.amountCents : null) ?? request.amountCents;
}

/** The amount to send, or the 400 of a Pix key or a code without value sent without `amount`. */
export function requiredAmountCents(request: TransferAsked): number {
  const amountCents = requestedAmountCents(request);
  if (amountCents === null) throw invalidRequest('amount é obrigatório para chave Pix e para BR Code sem valor definido');
  return amountCents;
}

export function transferComparedFields(request: TransferRequest): Record<string, unknown> {
  return {
    amount: requestedAmountCents(request),
    destination: comparedDestination(request.destination),
    description: request.description,
    coverFee: request.coverFee,
    ...comparedMetadata(request.metadata),
  };
}

/**
 * Prices the transfer for the account, or throws the 400 that says why it cannot be made: missing
 * amount, below the account's minimum, or not above the fee. A BR Code that defines its value is
 * paid in full (the code value prevails), so its fee is debited on top whatever `coverFee` says;
 * `coverFee` is still compared, as sent, by the idempotency rules.
 */
export function priceTransfer(request: TransferAsked, account: Account): TransferAmounts & { amountCents: number } {
  const amountCents = requiredAmountCents(request);
  if (amountCents < account.limits.transferMinCents) {
    throw invalidRequest(`Valor mínimo para transferência: ${formatReais(account.limits.transferMinCents)}`);
  }
  const codeDefinesValue = request.destination.type === 'br_code' && request.destination.amountCents !== null;
  const amounts = transferAmounts({ amountCents, coverFee: codeDefinesValue || request.coverFee, rule: account.fees.transfer });
  if (!amounts.ok) throw invalidRequest('Valor deve ser maior que a tarifa');
  return { ...amounts, amountCents };
}
