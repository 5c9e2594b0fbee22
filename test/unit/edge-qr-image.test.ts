// A QR image is judged by its header before any pixel is decoded, and decoded off the event loop.
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { readQrImage } from '../../src/domain/qr-reader.js';
import { checkQrImage, decodeQrPngBase64, qrPngBase64, QR_IMAGE_LIMITS } from '../../src/domain/qrcode.js';
import { pngBomb } from '../helpers/hostile-images.js';

const CODE = buildBrCode({ pixKey: 'loja@example.com', amountCents: 1000, txid: 'pedido1', merchantName: 'Loja', merchantCity: 'Recife' });

async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('QR images: budget from the header', () => {
  it('refuses an image over 2000×2000 px at once, without decoding it', async () => {
    const bomb = pngBomb(8000);
    expect(bomb.length).toBeLessThan(15_000);
    const checked = await timed(() => checkQrImage(bomb));
    expect(checked.value).toEqual({ ok: false, reason: 'imagem de QR code de 8000×8000 px (máximo 2000×2000)' });
    const decoded = await timed(() => decodeQrPngBase64(bomb));
    expect(decoded.value).toBeNull();
    expect(decoded.ms).toBeLessThan(100);
    const read = await timed(() => readQrImage(bomb, 'acc_test'));
    expect(read.value).toMatchObject({ ok: false, retryable: false, reason: expect.stringMatching(/8000×8000/) });
    expect(read.ms).toBeLessThan(100);
  });

  it('refuses a file over the byte budget and an interlaced PNG (which pngjs inflates without a limit)', () => {
    expect(checkQrImage(Buffer.alloc(QR_IMAGE_LIMITS.bytes + 1).toString('base64'))).toMatchObject({ ok: false, reason: expect.stringMatching(/bytes/) });
    expect(checkQrImage(pngBomb(1000, { interlaced: true }))).toMatchObject({ ok: false, reason: expect.stringMatching(/entrelaçado/) });
    expect(checkQrImage(Buffer.from('not a png').toString('base64'))).toMatchObject({ ok: false, reason: expect.stringMatching(/ilegível/) });
  });
});

describe('QR images: read off the event loop', () => {
  it('reads a real QR code, and the event loop keeps turning while the largest allowed image is decoded', async () => {
    expect(await readQrImage(await qrPngBase64(CODE), 'acc_test')).toEqual({ ok: true, text: CODE });

    const largest = (await QRCode.toBuffer(CODE, { type: 'png', width: QR_IMAGE_LIMITS.side })).toString('base64');
    let longestPauseMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestPauseMs = Math.max(longestPauseMs, now - last);
      last = now;
    }, 5);
    const read = await timed(() => readQrImage(largest, 'acc_test'));
    clearInterval(ticker);
    expect(read.value).toEqual({ ok: true, text: CODE });
    // Inline, this decode holds the loop for over a second; in the worker the loop only waits for its turn.
    expect(longestPauseMs, `decode took ${Math.round(read.ms)} ms`).toBeLessThan(300);
  }, 30_000);
});
