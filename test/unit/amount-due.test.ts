import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DueDateBilling } from '../../src/charges/contract.js';
import { amountDueOn, lateSurcharge, lowestAmountDue, type DueDateCharge } from '../../src/domain/amount-due.js';
import { dueDateExpiresAt, isPastValidity, lastPayableDay } from '../../src/domain/due-date-validity.js';

const NO_RULES: DueDateBilling = { validityAfterDue: 30, fine: null, interest: null, discounts: [], abatement: null };
const charge = (amountCents: number, dueDate: string, billing: Partial<DueDateBilling>): DueDateCharge => ({
  amountCents,
  dueDate,
  billing: { ...NO_RULES, ...billing },
});

describe('amountDueOn: worked examples', () => {
  it('late: base + fine + interest per month × days late (R$ 1000, 2 % fine, 1 % a month, 15 days late)', () => {
    const rent = charge(100_000, '2026-03-10', {
      fine: { mode: 'percent', value: 200 },
      interest: { mode: 'percent_per_month', value: 100 },
    });
    expect(amountDueOn(rent, '2026-03-10')).toBe(100_000);
    expect(amountDueOn(rent, '2026-03-11')).toBe(102_033); // 100000 + 2000 + 33.33…
    expect(amountDueOn(rent, '2026-03-25')).toBe(102_500);
  });

  it('rounds once, at the end: half a centavo of fine and half of interest make one centavo, not two', () => {
    const tiny = charge(100, '2026-03-10', { fine: { mode: 'percent', value: 50 }, interest: { mode: 'percent_per_day', value: 50 } });
    expect(amountDueOn(tiny, '2026-03-11')).toBe(101);
  });

  it('rounds half-up', () => {
    expect(amountDueOn(charge(33, '2026-03-10', { abatement: { mode: 'percent', value: 5000 } }), '2026-03-10')).toBe(17); // 16.5
    expect(amountDueOn(charge(14_990, '2026-03-10', { interest: { mode: 'percent_per_day', value: 3 } }), '2026-03-17')).toBe(15_021); // 15021.479
  });

  it('interest per year is of 365 days, fixed interest is reais per day', () => {
    const yearly = charge(10_001, '2026-03-10', { interest: { mode: 'percent_per_year', value: 1250 } });
    expect(amountDueOn(yearly, '2026-03-11')).toBe(10_004); // 10004.425
    expect(amountDueOn(yearly, '2027-03-10')).toBe(11_251); // 10001 × 1.125 = 11251.125
    const daily = charge(5_000, '2026-03-10', { interest: { mode: 'fixed_per_day', value: 15 }, fine: { mode: 'fixed', value: 200 } });
    expect(amountDueOn(daily, '2026-04-09')).toBe(5_000 + 200 + 30 * 15);
  });

  it('early: the first discount whose date has not passed, of the base after the abatement', () => {
    const tuition = charge(50_000, '2026-03-10', {
      abatement: { mode: 'fixed', value: 5_000 },
      discounts: [
        { until: '2026-03-01', mode: 'percent', value: 1000 },
        { until: '2026-03-05', mode: 'percent', value: 500 },
      ],
      fine: { mode: 'fixed', value: 1_000 },
    });
    expect(amountDueOn(tuition, '2026-02-20')).toBe(40_500);
    expect(amountDueOn(tuition, '2026-03-01')).toBe(40_500);
    expect(amountDueOn(tuition, '2026-03-02')).toBe(42_750);
    expect(amountDueOn(tuition, '2026-03-06')).toBe(45_000);
    expect(amountDueOn(tuition, '2026-03-10')).toBe(45_000);
    expect(amountDueOn(tuition, '2026-03-11')).toBe(46_000);
    expect(lowestAmountDue(tuition)).toBe(40_500);
  });

  it('fixed discounts in reais', () => {
    const early = charge(20_000, '2026-03-10', { discounts: [{ until: '2026-03-10', mode: 'fixed', value: 1_999 }] });
    expect(amountDueOn(early, '2026-03-10')).toBe(18_001);
    expect(amountDueOn(early, '2026-03-11')).toBe(20_000);
  });

  it('what paying late adds: the amount due less the base (after the abatement, discounts aside), from the day after the due date', () => {
    const tuition = charge(50_000, '2026-03-10', {
      abatement: { mode: 'fixed', value: 5_000 },
      discounts: [{ until: '2026-03-01', mode: 'percent', value: 1000 }],
      fine: { mode: 'fixed', value: 1_000 },
      interest: { mode: 'fixed_per_day', value: 15 },
    });
    expect(lateSurcharge(tuition, '2026-03-01')).toBeNull();
    expect(lateSurcharge(tuition, '2026-03-10')).toBeNull();
    expect(lateSurcharge(tuition, '2026-03-13')).toEqual({ cents: 1_000 + 3 * 15, daysLate: 3 });
    // A base of half a centavo: the two roundings still add up to the amount due.
    const odd = charge(33, '2026-03-10', { abatement: { mode: 'percent', value: 5000 }, fine: { mode: 'percent', value: 1000 } });
    expect(amountDueOn(odd, '2026-03-11')).toBe(18); // 16.5 + 1.65
    expect(lateSurcharge(odd, '2026-03-11')).toEqual({ cents: 1, daysLate: 1 });
  });
});

describe('validity of a due-date charge', () => {
  it('can be paid through dueDate + validityAfterDue and expires at 00:00 in São Paulo the day after', () => {
    const terms = { dueDate: '2026-03-10', billing: { ...NO_RULES, validityAfterDue: 30 } };
    expect(lastPayableDay(terms)).toBe('2026-04-09');
    expect(dueDateExpiresAt(terms).toISOString()).toBe('2026-04-10T03:00:00.000Z');
    expect(isPastValidity(terms, '2026-04-09')).toBe(false);
    expect(isPastValidity(terms, '2026-04-10')).toBe(true);
    const none = { dueDate: '2026-03-10', billing: { ...NO_RULES, validityAfterDue: 0 } };
    expect(dueDateExpiresAt(none).toISOString()).toBe('2026-03-11T03:00:00.000Z');
  });
});

// ---- An independent, slow computation: decimal strings in reais, reduced fractions, days counted one by one.

type Fraction = [bigint, bigint];
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const reduce = ([n, d]: Fraction): Fraction => {
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
};
const add = (a: Fraction, b: Fraction): Fraction => reduce([a[0] * b[1] + b[0] * a[1], a[1] * b[1]]);
const mul = (a: Fraction, b: Fraction): Fraction => reduce([a[0] * b[0], a[1] * b[1]]);
const neg = (a: Fraction): Fraction => [-a[0], a[1]];

/** "12.34" → 1234/100, read as text. */
function decimal(text: string): Fraction {
  const [whole, fraction = ''] = text.split('.');
  return reduce([BigInt(whole! + fraction), 10n ** BigInt(fraction.length)]);
}
/** Centavos or hundredths written as a decimal text with two places. */
const asDecimalText = (hundredths: number) => `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
const percentOfRef = (hundredths: number, ref: Fraction) => mul(ref, mul(decimal(asDecimalText(hundredths)), [1n, 100n]));

function daysLateByStepping(dueDate: string, day: string): number {
  if (day <= dueDate) return 0;
  const cursor = new Date(`${dueDate}T12:00:00Z`);
  let days = 0;
  while (cursor.toISOString().slice(0, 10) < day) {
    cursor.setUTCDate(cursor.getUTCDate() + 1);
    days += 1;
  }
  return days;
}

function slowAmountDue(c: DueDateCharge, day: string): number {
  const amount = decimal(asDecimalText(c.amountCents)); // reais
  const { abatement, discounts, fine, interest } = c.billing;
  const off = (rule: { mode: string; value: number }, ref: Fraction) =>
    rule.mode === 'fixed' ? decimal(asDecimalText(rule.value)) : percentOfRef(rule.value, ref);
  const base = abatement ? add(amount, neg(off(abatement, amount))) : amount;
  let due: Fraction;
  if (day <= c.dueDate) {
    const discount = discounts.find((d) => d.until >= day);
    due = discount ? add(base, neg(off(discount, base))) : base;
  } else {
    due = fine ? add(base, off(fine, base)) : base;
    const late = daysLateByStepping(c.dueDate, day);
    for (let i = 0; i < late && interest; i += 1) {
      const perDay =
        interest.mode === 'fixed_per_day'
          ? decimal(asDecimalText(interest.value))
          : mul(percentOfRef(interest.value, base), [
              1n,
              { percent_per_day: 1n, percent_per_month: 30n, percent_per_year: 365n }[interest.mode],
            ]);
      due = add(due, perDay);
    }
  }
  const inCents = mul(due, [100n, 1n]);
  if (inCents[0] <= 0n) return 0;
  const whole = inCents[0] / inCents[1];
  const rest = inCents[0] - whole * inCents[1];
  return Number(2n * rest >= inCents[1] ? whole + 1n : whole);
}

const dayArb = fc.integer({ min: 0, max: 3650 }).map((offset) => {
  const d = new Date(Date.UTC(2026, 0, 1 + offset));
  return d.toISOString().slice(0, 10);
});
const fixedOrPercent = (maxCents: number) =>
  fc.oneof(
    fc.record({ mode: fc.constant('fixed' as const), value: fc.integer({ min: 1, max: maxCents }) }),
    fc.record({ mode: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 10_000 }) }),
  );
const chargeArb: fc.Arbitrary<DueDateCharge> = fc
  .record({
    amountCents: fc.integer({ min: 100, max: 100_000_000 }),
    dueDate: dayArb,
    validityAfterDue: fc.integer({ min: 0, max: 365 }),
    fine: fc.option(fixedOrPercent(1_000_000)),
    interest: fc.option(
      fc.record({
        mode: fc.constantFrom(
          'fixed_per_day' as const,
          'percent_per_day' as const,
          'percent_per_month' as const,
          'percent_per_year' as const,
        ),
        value: fc.integer({ min: 1, max: 10_000 }),
      }),
    ),
    abatement: fc.option(fixedOrPercent(50)),
    discountMode: fc.constantFrom('fixed' as const, 'percent' as const),
    discountDays: fc.uniqueArray(fc.integer({ min: 0, max: 120 }), { maxLength: 3 }),
    discountValues: fc.array(fc.integer({ min: 1, max: 9_999 }), { minLength: 3, maxLength: 3 }),
  })
  .map(({ amountCents, dueDate, validityAfterDue, fine, interest, abatement, discountMode, discountDays, discountValues }) => ({
    amountCents,
    dueDate,
    billing: {
      validityAfterDue,
      fine,
      interest,
      abatement,
      discounts: [...discountDays]
        .sort((a, b) => b - a)
        .map((before, i) => {
          const d = new Date(`${dueDate}T00:00:00Z`);
          d.setUTCDate(d.getUTCDate() - before);
          return { until: d.toISOString().slice(0, 10), mode: discountMode, value: discountValues[i]! };
        }),
    },
  }));

describe('amountDueOn against an independent slow computation', () => {
  it('agrees to the centavo over random rules and days (before, on and after the due date)', () => {
    fc.assert(
      fc.property(chargeArb, fc.integer({ min: -150, max: 400 }), (c, offset) => {
        const d = new Date(`${c.dueDate}T00:00:00Z`);
        d.setUTCDate(d.getUTCDate() + offset);
        const day = d.toISOString().slice(0, 10);
        expect(amountDueOn(c, day)).toBe(slowAmountDue(c, day));
      }),
      { numRuns: 3000 },
    );
  });

  it('the lowest amount due is the least over every day up to the due date, and no late day asks less', () => {
    fc.assert(
      fc.property(chargeArb, (c) => {
        let least = Infinity;
        for (let offset = -125; offset <= 0; offset += 1) {
          const d = new Date(`${c.dueDate}T00:00:00Z`);
          d.setUTCDate(d.getUTCDate() + offset);
          least = Math.min(least, slowAmountDue(c, d.toISOString().slice(0, 10)));
        }
        expect(lowestAmountDue(c)).toBe(least);
        const late = new Date(`${c.dueDate}T00:00:00Z`);
        late.setUTCDate(late.getUTCDate() + 1);
        expect(amountDueOn(c, late.toISOString().slice(0, 10))).toBeGreaterThanOrEqual(least);
      }),
      { numRuns: 300 },
    );
  });
});
