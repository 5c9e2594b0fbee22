// Fees, coverFee and split arithmetic in integer centavos. Every result balances exactly:
// payer = fee + split + net for charges, debited = fee + recipient (+ nothing lost) for transfers.
import type { FeeRule } from '../accounts/account.js';

export type { FeeRule };

/** A split item as the domain sees it: `amount` is in centavos, `percent` is of the sent amount. */
export interface SplitItem {
  recipient: string;
  amount?: number;
  percent?: number;
  description?: string;
}

export interface SplitShare {
  recipient: string;
  amountCents: number;
  description?: string;
}

export type AmountsError = { ok: false; code: 'SPLIT_EXCEEDS_SALE' | 'FEE_EXCEEDS_AMOUNT' };

export type ChargeAmounts = {
  ok: true;
  /** What the payer pays: the sent amount, plus the fee when coverFee is true. */
  payerAmountCents: number;
  feeCents: number;
  splitAmountCents: number;
  splitShares: SplitShare[];
  /** What the account keeps: payer − fee − split. */
  netAmountCents: number;
};

export type TransferAmounts = {
  ok: true;
  feeCents: number;
  /** What leaves the account's balance. */
  debitedAmountCents: number;
  /** What reaches the destination. */
  recipientAmountCents: number;
  /** Equal to recipientAmountCents: the transfer's net value is what the recipient receives. */
  netAmountCents: number;
};

const PLAIN_DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `percent` % of `baseCents`, rounded half-up to the centavo, computed exactly from the percent's decimal form. */
export function percentOf(baseCents: number, percent: number): number {
  const match = PLAIN_DECIMAL.exec(String(percent));
  if (!match || !Number.isSafeInteger(baseCents) || baseCents < 0) {
    throw new RangeError(`percentOf: invalid operands ${baseCents}, ${percent}`);
  }
  const decimals = match[2] ?? '';
  const numerator = BigInt(match[1]! + decimals);
  const denominator = 100n * 10n ** BigInt(decimals.length);
  return Number((2n * BigInt(baseCents) * numerator + denominator) / (2n * denominator));
}

/** The fee of an operation of `baseCents`: fixed part plus percent part (half-up). */
export function feeFor(baseCents: number, rule: FeeRule): number {
  return rule.fixedCents + percentOf(baseCents, rule.percent);
}

/**
 * The smallest payer amount P with P − fee(P) = sentCents exactly. P − percentOf(P) grows by 0 or 1
 * per centavo when percent < 100, so the smallest P reaching the target hits it exactly.
 */
function grossUp(sentCents: number, rule: FeeRule): number | null {
  if (rule.percent >= 100) return null;
  const target = sentCents + rule.fixedCents;
  const keeps = (payer: number) => payer - percentOf(payer, rule.percent);
  let low = target; // keeps(low) <= target
  let high = target;
  while (keeps(high) < target) high *= 2;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (keeps(middle) >= target) high = middle;
    else low = middle + 1;
  }
  return low;
}

function shareOf(item: SplitItem, sentCents: number): SplitShare {
  const amountCents = item.amount ?? percentOf(sentCents, item.percent ?? 0);
  return item.description === undefined
    ? { recipient: item.recipient, amountCents }
    : { recipient: item.recipient, amountCents, description: item.description };
}

/**
 * Amounts of a charge. coverFee false: the payer pays the sent amount and the account gets it
 * minus the fee; true: the payer pays the sent amount grossed up so that payer − fee(payer) is
 * exactly the sent amount. Split percents are of the sent amount; the split comes out of the
 * account's part. The sent amount must exceed the fee in both modes.
 */
export function chargeAmounts(input: {
  amountCents: number;
  coverFee: boolean;
  rule: FeeRule;
  split?: SplitItem[];
}): ChargeAmounts | AmountsError {
  const { amountCents, coverFee, rule } = input;
  const payerAmountCents = coverFee ? grossUp(amountCents, rule) : amountCents;
  if (payerAmountCents === null) return { ok: false, code: 'FEE_EXCEEDS_AMOUNT' };
  const feeCents = feeFor(payerAmountCents, rule);
  if (amountCents <= feeCents) return { ok: false, code: 'FEE_EXCEEDS_AMOUNT' };
  const splitShares = (input.split ?? []).map((item) => shareOf(item, amountCents));
  const splitAmountCents = splitShares.reduce((sum, share) => sum + share.amountCents, 0);
  const netAmountCents = payerAmountCents - feeCents - splitAmountCents;
  if (netAmountCents < 0) return { ok: false, code: 'SPLIT_EXCEEDS_SALE' };
  return { ok: true, payerAmountCents, feeCents, splitAmountCents, splitShares, netAmountCents };
}

/**
 * Amounts of a transfer, fee computed on the sent amount. coverFee true: the account pays
 * amount + fee and the recipient gets the amount; false: the account pays the amount and the
 * recipient gets amount − fee, which must stay positive.
 */
export function transferAmounts(input: { amountCents: number; coverFee: boolean; rule: FeeRule }): TransferAmounts | AmountsError {
  const { amountCents, coverFee, rule } = input;
  const feeCents = feeFor(amountCents, rule);
  if (amountCents <= feeCents) return { ok: false, code: 'FEE_EXCEEDS_AMOUNT' };
  const debitedAmountCents = coverFee ? amountCents + feeCents : amountCents;
  const recipientAmountCents = coverFee ? amountCents : amountCents - feeCents;
  return { ok: true, feeCents, debitedAmountCents, recipientAmountCents, netAmountCents: recipientAmountCents };
}

/** A split share as priced on what was paid: a percent of it, or a fixed amount. */
export type PaidShare = { percent: number } | { amountCents: number };

export interface PaidChargeAmounts {
  feeCents: number;
  /** Each share, in the order given. */
  shareCents: number[];
  splitAmountCents: number;
  netAmountCents: number;
}

/**
 * Amounts of a charge priced on what the payer paid (a due-date charge's amount due that day): the fee
 * and the percent shares of `paidCents`, the fixed shares as they are, the account the rest. The accept
 * step checked them against the least the charge can ask; should the roundings of the percents still
 * leave the account short (a few centavos at most), the fee gives them back first, then the percent
 * shares from the last, so every approval balances with nothing negative.
 */
export function paidChargeAmounts(paidCents: number, rule: FeeRule, shares: PaidShare[]): PaidChargeAmounts {
  let feeCents = Math.min(feeFor(paidCents, rule), paidCents);
  const shareCents = shares.map((share) => ('percent' in share ? percentOf(paidCents, share.percent) : share.amountCents));
  const net = () => paidCents - feeCents - shareCents.reduce((sum, cents) => sum + cents, 0);
  if (net() < 0) feeCents -= Math.min(feeCents, -net());
  for (let i = shares.length - 1; i >= 0 && net() < 0; i -= 1) {
    if ('percent' in shares[i]!) shareCents[i] = shareCents[i]! - Math.min(shareCents[i]!, -net());
  }
  const splitAmountCents = shareCents.reduce((sum, cents) => sum + cents, 0);
  return { feeCents, shareCents, splitAmountCents, netAmountCents: paidCents - feeCents - splitAmountCents };
}
