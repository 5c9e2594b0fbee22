import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chargeAmounts, feeFor, percentOf, transferAmounts, type FeeRule, type SplitItem } from '../../src/domain/fees.js';

const percentArb = fc.integer({ min: 0, max: 2000 }).map((hundredths) => hundredths / 100); // 0 … 20 %
const ruleArb = fc.record({ fixedCents: fc.integer({ min: 0, max: 500 }), percent: percentArb });
const splitArb: fc.Arbitrary<SplitItem[]> = fc.array(
  fc.oneof(
    fc.record({ recipient: fc.emailAddress(), amount: fc.integer({ min: 1, max: 50_000 }) }),
    fc.record({ recipient: fc.emailAddress(), percent: fc.integer({ min: 1, max: 5000 }).map((h) => h / 100) }),
  ),
  { maxLength: 10 },
);

/**
 * Why a charge was refused, checked independently of chargeAmounts: a split refusal is a split larger
 * than what the account keeps without it; a fee refusal is a sent amount not above the fee of what the
 * payer would pay (with coverFee, the smallest payer amount that leaves the sent amount after its fee,
 * found by counting up: such refusals only happen below 2,000 centavos with fees of at most 5 + 20 %).
 */
function expectRefusalJustified(code: string, amountCents: number, coverFee: boolean, rule: FeeRule, split: SplitItem[]): void {
  if (code === 'SPLIT_EXCEEDS_SALE') {
    const alone = chargeAmounts({ amountCents, coverFee, rule });
    const shares = split.reduce((sum, item) => sum + (item.amount ?? percentOf(amountCents, item.percent!)), 0);
    expect(alone.ok && alone.netAmountCents < shares).toBe(true);
    return;
  }
  expect(code).toBe('FEE_EXCEEDS_AMOUNT');
  let payer = amountCents;
  if (coverFee) {
    expect(amountCents).toBeLessThan(2000);
    while (payer - feeFor(payer, rule) < amountCents) payer += 1;
  }
  expect(amountCents).toBeLessThanOrEqual(feeFor(payer, rule));
}

describe('percentOf and feeFor', () => {
  it.each([
    [10000, 1.5, 150],
    [100, 1.5, 2], // 1.5 → half-up
    [1000, 1.15, 12], // 11.5 exactly, although 1.15 is not exact in binary
    [14990, 0.99, 148], // 148.401
    [333, 50, 167], // 166.5
    [0, 7, 0],
    [12345, 0, 0],
  ])('%s centavos × %s %% = %s', (base, percent, expected) => {
    expect(percentOf(base, percent)).toBe(expected);
  });

  it('adds the fixed part', () => {
    expect(feeFor(10000, { fixedCents: 99, percent: 1.5 })).toBe(249);
  });

  it('refuses operands that are not plain non-negative decimals', () => {
    expect(() => percentOf(100, -1)).toThrow(RangeError);
    expect(() => percentOf(-100, 1)).toThrow(RangeError);
    expect(() => percentOf(1.5, 1)).toThrow(RangeError);
  });
});

describe('chargeAmounts', () => {
  it('coverFee false: payer pays the sent amount, account gets it minus fee', () => {
    expect(chargeAmounts({ amountCents: 10000, coverFee: false, rule: { fixedCents: 100, percent: 2 } })).toEqual({
      ok: true,
      payerAmountCents: 10000,
      feeCents: 300,
      splitAmountCents: 0,
      splitShares: [],
      netAmountCents: 9700,
    });
  });

  it('coverFee true with a percent: grosses up so that the account gets the sent amount exactly', () => {
    const result = chargeAmounts({ amountCents: 10000, coverFee: true, rule: { fixedCents: 100, percent: 2 } });
    // 10306 − (100 + round(206.12)) = 10000
    expect(result).toMatchObject({ ok: true, payerAmountCents: 10306, feeCents: 306, netAmountCents: 10000 });
  });

  it('split by amount and percent comes out of the account part', () => {
    const split: SplitItem[] = [
      { recipient: 'a@example.com', amount: 1000, description: 'comissão' },
      { recipient: 'b@example.com', percent: 12.5 },
    ];
    expect(chargeAmounts({ amountCents: 10000, coverFee: false, rule: { fixedCents: 0, percent: 1 }, split })).toEqual({
      ok: true,
      payerAmountCents: 10000,
      feeCents: 100,
      splitAmountCents: 2250,
      splitShares: [
        { recipient: 'a@example.com', amountCents: 1000, description: 'comissão' },
        { recipient: 'b@example.com', amountCents: 1250 },
      ],
      netAmountCents: 7650,
    });
  });

  it('refuses an amount not greater than the fee', () => {
    const rule = { fixedCents: 200, percent: 0 };
    expect(chargeAmounts({ amountCents: 200, coverFee: false, rule })).toEqual({ ok: false, code: 'FEE_EXCEEDS_AMOUNT' });
    expect(chargeAmounts({ amountCents: 200, coverFee: true, rule })).toEqual({ ok: false, code: 'FEE_EXCEEDS_AMOUNT' });
    expect(chargeAmounts({ amountCents: 201, coverFee: false, rule })).toMatchObject({ ok: true, netAmountCents: 1 });
    expect(chargeAmounts({ amountCents: 1000, coverFee: true, rule: { fixedCents: 0, percent: 100 } })).toEqual({
      ok: false,
      code: 'FEE_EXCEEDS_AMOUNT',
    });
  });

  it('refuses a split that does not fit after the fee', () => {
    const rule = { fixedCents: 100, percent: 0 };
    const split = [{ recipient: 'a@example.com', percent: 100 }];
    expect(chargeAmounts({ amountCents: 10000, coverFee: false, rule, split })).toEqual({
      ok: false,
      code: 'SPLIT_EXCEEDS_SALE',
    });
    // With coverFee the payer pays the fee, so the whole sent amount can go to the split.
    expect(chargeAmounts({ amountCents: 10000, coverFee: true, rule, split })).toMatchObject({
      ok: true,
      netAmountCents: 0,
      splitAmountCents: 10000,
    });
  });

  it('property: nothing is created or lost by rounding', () => {
    const seen = { accepted: 0, FEE_EXCEEDS_AMOUNT: 0, SPLIT_EXCEEDS_SALE: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.boolean(), ruleArb, splitArb, (amountCents, coverFee, rule, split) => {
        const result = chargeAmounts({ amountCents, coverFee, rule, split });
        seen[result.ok ? 'accepted' : result.code] += 1;
        if (!result.ok) {
          expectRefusalJustified(result.code, amountCents, coverFee, rule, split);
          return;
        }
        const { payerAmountCents, feeCents, splitAmountCents, splitShares, netAmountCents } = result;
        expect(payerAmountCents).toBe(feeCents + splitAmountCents + netAmountCents);
        expect(splitAmountCents).toBe(splitShares.reduce((sum, s) => sum + s.amountCents, 0));
        expect(feeCents).toBe(feeFor(payerAmountCents, rule));
        expect(netAmountCents).toBeGreaterThanOrEqual(0);
        expect(feeCents).toBeLessThan(amountCents);
        if (coverFee) {
          expect(netAmountCents + splitAmountCents).toBe(amountCents);
          expect(payerAmountCents - feeCents).toBe(amountCents);
          // the smallest such payer amount: one centavo less would leave the account short
          const less = payerAmountCents - 1;
          expect(less - feeFor(less, rule)).toBeLessThan(amountCents);
        } else {
          expect(payerAmountCents).toBe(amountCents);
        }
      }),
      { numRuns: 1000 },
    );
    // Each branch was examined, so no refusal let the property pass unchecked.
    expect(
      Object.values(seen).every((count) => count > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it('property: the refusals are exactly the cases that do not fit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), ruleArb, splitArb, (amountCents, rule, split) => {
        const result = chargeAmounts({ amountCents, coverFee: false, rule, split });
        const fee = feeFor(amountCents, rule);
        const shares = split.reduce((sum, item) => sum + (item.amount ?? percentOf(amountCents, item.percent!)), 0);
        if (amountCents <= fee) expect(result).toEqual({ ok: false, code: 'FEE_EXCEEDS_AMOUNT' });
        else if (amountCents - fee - shares < 0) expect(result).toEqual({ ok: false, code: 'SPLIT_EXCEEDS_SALE' });
        else expect(result.ok).toBe(true);
      }),
    );
  });
});

describe('transferAmounts', () => {
  const rule = { fixedCents: 50, percent: 1 };

  it.each([
    ['coverFee true: the account pays amount + fee, the recipient gets the amount', true, 10150, 10000],
    ['coverFee false: the account pays the amount, the recipient gets amount − fee', false, 10000, 9850],
  ])('%s', (_what, coverFee, debitedAmountCents, recipientAmountCents) => {
    expect(transferAmounts({ amountCents: 10000, coverFee, rule })).toEqual({
      ok: true,
      feeCents: 150,
      debitedAmountCents,
      recipientAmountCents,
      netAmountCents: recipientAmountCents,
    });
  });

  it('refuses an amount not greater than the fee', () => {
    expect(transferAmounts({ amountCents: 50, coverFee: false, rule: { fixedCents: 50, percent: 0 } })).toEqual({
      ok: false,
      code: 'FEE_EXCEEDS_AMOUNT',
    });
  });

  it('property: debited = fee + recipient exactly', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000_000 }), fc.boolean(), ruleArb, (amountCents, coverFee, r) => {
        const result = transferAmounts({ amountCents, coverFee, rule: r });
        seen[result.ok ? 'accepted' : 'refused'] += 1;
        if (!result.ok) {
          expect(amountCents).toBeLessThanOrEqual(feeFor(amountCents, r));
          return;
        }
        expect(result.debitedAmountCents).toBe(result.feeCents + result.recipientAmountCents);
        expect(result.netAmountCents).toBe(result.recipientAmountCents);
        expect(result.recipientAmountCents).toBeGreaterThan(0);
        expect(coverFee ? result.recipientAmountCents : result.debitedAmountCents).toBe(amountCents);
      }),
      { numRuns: 1000 },
    );
    expect(seen.accepted > 0 && seen.refused > 0, JSON.stringify(seen)).toBe(true);
  });
});
