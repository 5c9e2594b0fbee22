import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildBrCode, parseBrCode } from '../../src/domain/brcode.js';

// Example of the Banco Central's BR Code manual (static code with a random key).
const MANUAL_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000' +
  '5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function withLastCrcDigitChanged(code: string): string {
  const last = code.at(-1)!;
  return code.slice(0, -1) + (last === '0' ? '1' : '0');
}

describe('parseBrCode', () => {
  it('reads the manual example', () => {
    expect(parseBrCode(MANUAL_EXAMPLE)).toEqual({
      ok: true,
      pixKey: '123e4567-e12b-12d1-a456-426655440000',
      amountCents: null,
      txid: null,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      static: true,
    });
  });

  it.each([
    ['a wrong CRC', withLastCrcDigitChanged(MANUAL_EXAMPLE)],
    ['a changed byte with the old CRC', MANUAL_EXAMPLE.replace('Fulano', 'Fulana')],
    ['a truncated code', MANUAL_EXAMPLE.slice(0, 40)],
    ['a TLV length that overflows', MANUAL_EXAMPLE.replace('5913Fulano', '5999Fulano')],
    ['another GUI', MANUAL_EXAMPLE.replace('br.gov.bcb.pix', 'br.gov.bcb.xxx')],
    ['an empty string', ''],
    ['plain text', 'pague-me'],
  ])('refuses %s', (_name, code) => {
    expect(parseBrCode(code)).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it('refuses a value that is not a string', () => {
    expect(parseBrCode(42).ok).toBe(false);
    expect(parseBrCode(undefined).ok).toBe(false);
  });
});

describe('buildBrCode', () => {
  // [what, the parameters, text the code holds, what parsing it gives back]
  it.each([
    [
      'a static code with key, amount and txid, and a valid CRC',
      { pixKey: '529.982.247-25', amountCents: 14990, txid: 'txn0001', merchantName: 'Loja São João', merchantCity: 'São Paulo' },
      ['0014br.gov.bcb.pix', '5406149.90'],
      {
        pixKey: '52998224725',
        amountCents: 14990,
        txid: 'txn0001',
        merchantName: 'Loja Sao Joao',
        merchantCity: 'Sao Paulo',
        static: true,
      },
    ],
    [
      'a dynamic code with a location; the location carries amount and txid',
      { url: 'pix.example.com/qr/v2/abc123', amountCents: 1000, txid: 'ignored', merchantName: 'Loja', merchantCity: 'Recife' },
      [],
      { url: 'pix.example.com/qr/v2/abc123', amountCents: null, txid: null, merchantName: 'Loja', merchantCity: 'Recife', static: false },
    ],
  ])('writes %s', (_what, params, holds, parsed) => {
    const code = buildBrCode(params);
    for (const text of holds) expect(code).toContain(text);
    expect(parseBrCode(code)).toEqual({ ok: true, ...parsed });
  });

  it('throws on parameters no BR Code can carry', () => {
    expect(() => buildBrCode({ pixKey: 'nope', txid: 'a', merchantName: 'A', merchantCity: 'B' })).toThrow();
    expect(() => buildBrCode({ pixKey: '52998224725', txid: 'has space', merchantName: 'A', merchantCity: 'B' })).toThrow();
  });

  it('property: build then parse returns what was written', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.option(fc.integer({ min: 1, max: 99_999_999_99 }), { nil: undefined }),
        fc.stringMatching(/^[A-Za-z0-9]{1,25}$/),
        fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,23}[A-Za-z]$/),
        fc.stringMatching(/^[A-Za-z]{1,15}$/),
        (pixKey, amountCents, txid, merchantName, merchantCity) => {
          const code = buildBrCode({ pixKey, amountCents, txid, merchantName, merchantCity });
          const parsed = parseBrCode(code);
          expect(parsed).toEqual({
            ok: true,
            pixKey,
            amountCents: amountCents ?? null,
            txid,
            merchantName: merchantName.replace(/ {2,}/g, ' '),
            merchantCity,
            static: true,
          });
          expect(parseBrCode(withLastCrcDigitChanged(code)).ok).toBe(false);
        },
      ),
    );
  });
});
