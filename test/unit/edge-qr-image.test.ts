// A QR image is judged by its header before any pixel is decoded, and decoded off the event loop.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { readQrImage } from '../../src/domain/qr-reader.js';
import { checkQrImage, decodeQrPngBase64, qrPngBase64, QR_IMAGE_LIMITS } from '../../src/domain/qrcode.js';
import { pngBomb } from '../helpers/hostile-images.js';

const CODE = buildBrCode({ pixKey: 'loja@example.com', amountCents: 1000, txid: 'pedido1', merchantName: 'Loja', merchantCity: 'Recife' });

describe('QR images: budget from the header', () => {
  it('refuses an image over 2000×2000 px at once, without decoding it', async () => {
    const bomb = pngBomb(8000);
    expect(bomb.length).toBeLessThan(15_000);
    expect(checkQrImage(bomb)).toEqual({ ok: false, reason: 'imagem de QR code de 8000×8000 px (máximo 2000×2000)' });
    expect(decodeQrPngBase64(bomb)).toBeNull();
    // The header's reason, not a decoder's (unreadable, or out of time): no pixel was decoded.
    expect(await readQrImage(bomb, 'acc_test')).toEqual({
      ok: false,
      retryable: false,
      reason: 'imagem de QR code de 8000×8000 px (máximo 2000×2000)',
    });
  });

  it('refuses a file over the byte budget and an interlaced PNG (which pngjs inflates without a limit)', () => {
    expect(checkQrImage(Buffer.alloc(QR_IMAGE_LIMITS.bytes + 1).toString('base64'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/bytes/),
    });
    expect(checkQrImage(pngBomb(1000, { interlaced: true }))).toMatchObject({ ok: false, reason: expect.stringMatching(/entrelaçado/) });
    expect(checkQrImage(Buffer.from('not a png').toString('base64'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/ilegível/),
    });
  });
});

describe('QR images: read off the event loop', () => {
  it('reads a real QR code, and the event loop keeps turning while the largest allowed image is decoded', async () => {
    expect(await readQrImage(await qrPngBase64(CODE), 'acc_test')).toEqual({ ok: true, text: CODE });

    const largest = (await QRCode.toBuffer(CODE, { type: 'png', width: QR_IMAGE_LIMITS.side })).toString('base64');
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 5);
    let ticksWhileReading = 0;
    const read = readQrImage(largest, 'acc_test').finally(() => (ticksWhileReading = ticks));
    expect(await read).toEqual({ ok: true, text: CODE });
    clearInterval(ticker);
    // Inline, this decode (over half a second of CPU) would hold the loop: no timer could fire before it
    // ended. In the worker the loop keeps turning while it runs. (Its duration: npm run bench:qr.)
    expect(ticksWhileReading).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
