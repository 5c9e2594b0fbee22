import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centsToReais, reaisToCents } from '../../src/domain/money.js';

describe('reaisToCents', () => {
  it.each([
    [149.9, 14990],
    [0, 0],
    [0.01, 1],
    [1, 100],
    [10000, 1_000_000],
    [0.29, 29],
    [1.1, 110],
    [19.99, 1999],
  ])('%s reais → %s centavos', (reais, cents) => {
    expect(reaisToCents(reais)).toBe(cents);
  });

  it.each([
    ['more than two decimals', 1.234],
    ['float noise', 0.1 + 0.2],
    ['negative', -1],
    ['NaN', Number.NaN],
    ['infinity', Number.POSITIVE_INFINITY],
    ['exponent form', 1e21],
    ['tiny exponent', 1e-7],
    ['string', '10.00'],
    ['null', null],
    ['boolean', true],
    ['beyond safe integers', 2 ** 53],
  ])('refuses %s', (_name, value) => {
    expect(reaisToCents(value)).toBeNull();
  });

  it('round-trips every centavo amount through reais', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        expect(reaisToCents(centsToReais(cents))).toBe(cents);
      }),
    );
  });

  it('agrees with the decimal text of the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 99 }), (int, frac) => {
        const text = `${int}.${String(frac).padStart(2, '0')}`;
        expect(reaisToCents(Number(text))).toBe(int * 100 + frac);
      }),
    );
  });
});

describe('centsToReais', () => {
  it('converts numbers and bigints', () => {
    expect(centsToReais(14990)).toBe(149.9);
    expect(centsToReais(14990n)).toBe(149.9);
    expect(centsToReais(1)).toBe(0.01);
    expect(centsToReais(0)).toBe(0);
  });
});
