// The account's rules for a charge: receiving enabled, every amount the payer can be asked within the
// account's limits (the amount with the fee coverFee adds; a due-date charge's least, after the abatement
// or a discount, and most, with the fine and interest of its last payable day), the amount above the
// fee, the split fitting the sale and naming other active accounts; for a due-date charge, also the least
// it can ever ask against the fee and split (they are taken from what is paid). Each refusal is the spec's
// refusal (src/domain/refusal.ts), naming the field to blame; the accept step (src/transactions/acceptance.ts)
// decides with them. Within the limits, every amount is one a BR Code carries and the ledger settles exactly.
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import { chargeAmounts, type FeeRule, type SplitItem } from '../domain/fees.js';
import { formatReais } from '../domain/money.js';
import { BR_CODE_MAX_AMOUNT_CENTS } from '../domain/brcode.js';
import { invalidRequest, operationRefused, Refusal } from '../domain/refusal.js';
import type { ChargeAsked, DueDateTerms, SplitShare } from './contract.js';
import { amountDueOn, lowestAmountDue } from '../domain/amount-due.js';
import { lastPayableDay } from '../domain/due-date-validity.js';
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

interface ChargeLimits {
  minCents: number;
  maxCents: number;
}

function chargeLimitsOf(account: Pick<Account, 'limits'>): ChargeLimits {
  // An account's maximum set before it was bounded may exceed what a BR Code can carry.
  return { minCents: account.limits.chargeMinCents, maxCents: Math.min(account.limits.chargeMaxCents, BR_CODE_MAX_AMOUNT_CENTS) };
}

const withinLimits = ({ minCents, maxCents }: ChargeLimits, cents: number) => cents >= minCents && cents <= maxCents;

/** `what`: which amount, when not the amount sent. */
function outOfLimits({ minCents, maxCents }: ChargeLimits, param: string, what = ''): Refusal {
  return invalidRequest(`Valor fora dos limites${what}: a cobrança deve ser de ${formatReais(minCents)} a ${formatReais(maxCents)}`, param);
}

/** A charge's amount within the account's limits (`param`: where the request gave it). */
export function checkChargeLimits(account: Pick<Account, 'limits'>, amountCents: number, param: string): void {
  const limits = chargeLimitsOf(account);
  if (!withinLimits(limits, amountCents)) throw outOfLimits(limits, param);
}

/**
 * A due-date charge asks a different amount each day: the least (the base after the abatement, and
 * after each discount) and the most (with the fine, then with the interest, on its last payable day;
 * both only grow with the days late) within the account's limits, each refusal naming the rule that
 * takes the amount out of them.
 */
function checkAmountsDue(limits: ChargeLimits, amountCents: number, due: DueDateTerms): void {
  const charge = { amountCents, ...due };
  const { abatement, discounts, fine, interest } = due.billing;
  const on = (day: string, billing: Partial<DueDateTerms['billing']> = {}) =>
    amountDueOn({ ...charge, billing: { ...due.billing, ...billing } }, day);
  const base = on(due.dueDate, { discounts: [] });
  if (abatement && !withinLimits(limits, base)) throw outOfLimits(limits, '/abatement/value', ` com o abatimento (${formatReais(base)})`);
  discounts.forEach((discount, index) => {
    const discounted = on(discount.until);
    if (!withinLimits(limits, discounted)) {
      throw outOfLimits(limits, `/discounts/${index}/value`, ` com o desconto até ${discount.until} (${formatReais(discounted)})`);
    }
  });
  const lastDay = lastPayableDay(due);
  if (fine && on(lastDay, { interest: null }) > limits.maxCents) throw outOfLimits(limits, '/fine/value', ' com a multa');
  if (interest && on(lastDay) > limits.maxCents) {
    throw outOfLimits(limits, '/interest/value', ` com multa e juros no último dia de pagamento (${lastDay})`);
  }
}

export async function chargeTerms(sql: Sql | TxSql, account: Account, asked: ChargeAsked): Promise<ChargeTerms> {
  if (!account.pixReceivingEnabled) throw operationRefused('O recebimento via Pix está desativado para esta conta');
  checkChargeLimits(account, asked.amountCents, '/amount');
  const split: SplitItem[] = asked.split.map((item) => ({
    recipient: item.recipient,
    ...(item.amountCents !== undefined ? { amount: item.amountCents } : { percent: item.percent! }),
  }));
  const amounts = chargeAmounts({ amountCents: asked.amountCents, coverFee: asked.coverFee, rule: account.fees.charge, split });
  if (!amounts.ok && amounts.code === 'FEE_EXCEEDS_AMOUNT') throw invalidRequest('O valor deve ser maior que a taxa da operação');
  if (!amounts.ok) throw new Refusal('SPLIT_EXCEEDS_SALE', 'O split não cabe no valor da venda depois da taxa');
  const limits = chargeLimitsOf(account);
  if (!withinLimits(limits, amounts.payerAmountCents)) {
    throw outOfLimits(limits, '/amount', ` com a taxa paga pelo pagador (coverFee: ${formatReais(amounts.payerAmountCents)})`);
  }
  if (asked.due) {
    checkAmountsDue(limits, asked.amountCents, asked.due);
    checkLowestAmountDue(asked.amountCents, asked.due, account.fees.charge, split);
  }
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
