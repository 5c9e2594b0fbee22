// The amount due on a calendar day for a due-date charge (docs: due-date-charges.md). Every value is
// an exact fraction of centavos (BigInt numerator and denominator) until the one rounding, half-up to
// the centavo, at the end: a percent of a percent per month never drifts as binary floats would.
import type { BillingValue, DueDateTerms } from '../charges/contract.js';
import { daysBetween } from '../../contracts/calendar.js';

/** A due-date charge as its arithmetic needs it. */
export interface DueDateCharge extends DueDateTerms {
  amountCents: number;
}

interface Exact {
  num: bigint;
  den: bigint;
}

/** Hundredths of a percent per unit: a value of 150 (1.5 %) is 150 / 10000 of its reference. */
const PER_UNIT = 10_000n;

const cents = (value: number | bigint): Exact => ({ num: BigInt(value), den: 1n });
const plus = (a: Exact, b: Exact): Exact => ({ num: a.num * b.den + b.num * a.den, den: a.den * b.den });
const minus = (a: Exact, b: Exact): Exact => plus(a, { num: -b.num, den: b.den });
const scaled = (a: Exact, num: bigint, den: bigint): Exact => ({ num: a.num * num, den: a.den * den });

/** `value` of a fixed-or-percent rule: centavos, or that part of `reference`. */
function part(rule: BillingValue<string>, reference: Exact): Exact {
  return rule.mode === 'fixed' ? cents(rule.value) : scaled(reference, BigInt(rule.value), PER_UNIT);
}

const DAYS_PER_PERIOD = { percent_per_day: 1n, percent_per_month: 30n, percent_per_year: 365n } as const;

function dailyInterest(interest: NonNullable<DueDateTerms['billing']['interest']>, base: Exact): Exact {
  if (interest.mode === 'fixed_per_day') return cents(interest.value);
  return scaled(base, BigInt(interest.value), PER_UNIT * DAYS_PER_PERIOD[interest.mode]);
}

/** Half-up to the centavo; a negative amount (which validation never lets through) is nothing to pay. */
function roundHalfUp({ num, den }: Exact): number {
  if (num <= 0n) return 0;
  return Number((2n * num + den) / (2n * den));
}

/** `amount` − abatement: what the rules of every day start from. */
function exactBase({ amountCents, billing }: DueDateCharge): Exact {
  const amount = cents(amountCents);
  return billing.abatement ? minus(amount, part(billing.abatement, amount)) : amount;
}

/** The exact amount due on `day` (`YYYY-MM-DD`, America/Sao_Paulo), before rounding. */
function exactAmountDue(charge: DueDateCharge, day: string): Exact {
  const { dueDate, billing } = charge;
  const base = exactBase(charge);
  const daysLate = daysBetween(dueDate, day);
  if (daysLate <= 0) {
    const discount = billing.discounts.find((d) => daysBetween(day, d.until) >= 0);
    return discount ? minus(base, part(discount, base)) : base;
  }
  const fine = billing.fine ? part(billing.fine, base) : cents(0);
  const interest = billing.interest ? scaled(dailyInterest(billing.interest, base), BigInt(daysLate), 1n) : cents(0);
  return plus(plus(base, fine), interest);
}

/** The centavos due on `day`, rounded half-up once. */
export function amountDueOn(charge: DueDateCharge, day: string): number {
  return roundHalfUp(exactAmountDue(charge, day));
}

/**
 * The least the charge can ever ask (on the due date, or on a discount's last day): late days only
 * add to the base. What validation and the account's fee are checked against.
 */
export function lowestAmountDue(charge: DueDateCharge): number {
  return Math.min(...[charge.dueDate, ...charge.billing.discounts.map((d) => d.until)].map((day) => amountDueOn(charge, day)));
}

/** What paying late adds on `day`: the centavos due beyond the base (each rounded once) and the days late; null until then. */
export function lateSurcharge(charge: DueDateCharge, day: string): { cents: number; daysLate: number } | null {
  const daysLate = daysBetween(charge.dueDate, day);
  if (daysLate <= 0) return null;
  return { cents: amountDueOn(charge, day) - roundHalfUp(exactBase(charge)), daysLate };
}
