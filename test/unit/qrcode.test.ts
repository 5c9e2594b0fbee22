import { describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { decodeQrPngBase64, qrPngBase64 } from '../../src/domain/qrcode.js';

describe('qrcode', () => {
  it('round-trips a BR Code through a PNG', async () => {
    const code = buildBrCode({
      pixKey: '71c7d9be-4b85-4e43-9f1c-1f3b8b4e9a2d',
      amountCents: 14990,
      txid: 'txn9f8e7d6c5b4a',
      merchantName: 'Loja Exemplo',
      merchantCity: 'Curitiba',
    });
    const base64 = await qrPngBase64(code);
    expect(base64).not.toMatch(/^data:/);
    expect(Buffer.from(base64, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(decodeQrPngBase64(base64)).toBe(code);
  });

  it('returns null for data that is not a PNG with a QR code', async () => {
    expect(decodeQrPngBase64(Buffer.from('not a png').toString('base64'))).toBeNull();
    expect(decodeQrPngBase64('')).toBeNull();
  });
});
