// The account's rules for a charge: receiving enabled, the amount within the account's limits and
// above the fee, the split fitting the sale and naming other active accounts; for a due-date charge,
// also the least it can ever ask (the fee and the split are taken from what is paid). Each refusal is
// the spec's refusal (src/domain/refusal.ts); the accept step (src/transactions/acceptance.ts) decides with them.
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import { chargeAmounts, type FeeRule, type SplitItem } from '../domain/fees.js';
import { formatReais } from '../domain/money.js';
import { BR_CODE_MAX_AMOUNT_CENTS } from '../domain/brcode.js';
import { invalidRequest, operationRefused, Refusal } from '../domain/refusal.js';
import type { ChargeAsked, DueDateTerms, SplitShare } from '../../contracts/charge.contract.js';
import { lowestAmountDue } from '../domain/amount-due.js';
import { resolveSplitRecipients } from './recipients.js';

export interface ChargeTerms {
  /** What the payer pays. */
  amountCents: number;
  feeCents: number;
  splitAmountCents: number;
  netAmountCents: number;
  split: SplitShare[];
}

/**
 * A due-date charge is priced on what is paid, which discounts and an abatement can bring below the
 * amount: the least it can ever ask must still exceed the fee and hold the split.
 */
function checkLowestAmountDue(amountCents: number, due: DueDateTerms, rule: FeeRule, split: SplitItem[]): void {
  const lowest = chargeAmounts({ amountCents: lowestAmountDue({ amountCents, ...due }), coverFee: false, rule, split });
  if (!lowest.ok && lowest.code === 'FEE_EXCEEDS_AMOUNT') {
    throw invalidRequest('O menor valor a pagar (com abatimento e descontos) deve ser maior que a taxa da operação');
  }
  if (!lowest.ok)
    throw new Refusal('SPLIT_EXCEEDS_SALE', 'O split não cabe no menor valor a pagar (com abatimento e descontos) depois da taxa');
}

/** A charge's amount within the account's limits (`param`: where the request gave it, when not `amount`). */
export function checkChargeLimits(account: Pick<Account, 'limits'>, amountCents: number, param?: string): void {
  const { chargeMinCents } = account.limits;
  // An account's maximum set before it was bounded may exceed what a BR Code can carry.
  const chargeMaxCents = Math.min(account.limits.chargeMaxCents, BR_CODE_MAX_AMOUNT_CENTS);
  if (amountCents < chargeMinCents || amountCents > chargeMaxCents) {
    throw invalidRequest(
      `Valor fora dos limites: a cobrança deve ser de ${formatReais(chargeMinCents)} a ${formatReais(chargeMaxCents)}`,
      param,
    );
  }
}

export async function chargeTerms(sql: Sql | TxSql, account: Account, asked: ChargeAsked): Promise<ChargeTerms> {
  if (!account.pixReceivingEnabled) throw operationRefused('O recebimento via Pix está desativado para esta conta');
  checkChargeLimits(account, asked.amountCents);
  const split: SplitItem[] = asked.split.map((item) => ({
    recipient: item.recipient,
    ...(item.amountCents !== undefined ? { amount: item.amountCents } : { percent: item.percent! }),
  }));
  const amounts = chargeAmounts({ amountCents: asked.amountCents, coverFee: asked.coverFee, rule: account.fees.charge, split });
  if (!amounts.ok && amounts.code === 'FEE_EXCEEDS_AMOUNT') throw invalidRequest('O valor deve ser maior que a taxa da operação');
  if (!amounts.ok) throw new Refusal('SPLIT_EXCEEDS_SALE', 'O split não cabe no valor da venda depois da taxa');
  if (asked.due) checkLowestAmountDue(asked.amountCents, asked.due, account.fees.charge, split);
  const recipients = await resolveSplitRecipients(
    sql,
    account.id,
    asked.split.map((item) => item.recipient),
  );
  return {
    amountCents: amounts.payerAmountCents,
    feeCents: amounts.feeCents,
    splitAmountCents: amounts.splitAmountCents,
    netAmountCents: amounts.netAmountCents,
    split: asked.split.map((item, index) => ({
      recipient: item.recipient,
      accountId: recipients[index]!,
      amountCents: amounts.splitShares[index]!.amountCents,
      percent: item.percent ?? null,
      description: item.description ?? null,
    })),
  };
}
