// The QR decoder pool takes turns between accounts, with real worker threads: one account's heavy
// images do not starve another's valid one, a wait for a turn that runs out is retryable (nothing was
// judged), and only a decode that ran out of its own time is the image's fault.
import { afterEach, describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { QR_READ_LIMITS, qrReader, type QrRead, type QrReader, type QrReadLimits } from '../../src/domain/qr-reader.js';
import { qrPngBase64 } from '../../src/domain/qrcode.js';
import { pngBomb } from '../helpers/hostile-images.js';

const CODE = buildBrCode({ pixKey: 'loja@example.com', amountCents: 1000, txid: 'pedido1', merchantName: 'Loja', merchantCity: 'Recife' });
/** 2000×2000 px in under 1 kB: well within the budget, and over half a second of decoding each. */
const HEAVY = pngBomb(2000);

let reader: QrReader | undefined;
afterEach(async () => reader?.close());

function readerWith(limits: Partial<QrReadLimits>): QrReader {
  reader = qrReader({ ...QR_READ_LIMITS, ...limits });
  return reader;
}

describe('QR decoder pool: turns between accounts', () => {
  it("decodes another account's valid image before the rest of one account's heavy images", async () => {
    const pool = readerWith({});
    const answered: string[] = [];
    const read = (account: string, label: string, image: string) =>
      pool.read(image, account).then((result) => {
        answered.push(label);
        return result;
      });
    const heavy = [1, 2, 3, 4].map((n) => read('acc_heavy', `heavy${n}`, HEAVY));
    const valid = read('acc_other', 'valid', await qrPngBase64(CODE));

    expect(await valid).toEqual({ ok: true, text: CODE });
    const heavyReads = await Promise.all(heavy);
    // The heavy account's first image was decoding when the other came; then the turns alternate.
    expect(answered).toEqual(['heavy1', 'valid', 'heavy2', 'heavy3', 'heavy4']);
    for (const result of heavyReads)
      expect(result).toMatchObject({ ok: false, retryable: false, reason: expect.stringMatching(/ilegível/) });
  }, 60_000);

  it("refuses an account's image beyond its share of the queue at once, as retryable, while another account still gets in", async () => {
    const pool = readerWith({ perAccountWaiting: 2 });
    const heavy = [1, 2, 3].map(() => pool.read(HEAVY, 'acc_heavy'));
    // One decoding, two waiting: the account's share is taken.
    expect(await pool.read(HEAVY, 'acc_heavy')).toEqual({ ok: false, retryable: true, reason: expect.stringMatching(/tente novamente/) });
    expect(await pool.read(await qrPngBase64(CODE), 'acc_other')).toEqual({ ok: true, text: CODE });
    await Promise.all(heavy);
  }, 60_000);

  it('a wait for a turn that runs out is retryable; a decode that runs out of its own time is the image’s fault', async () => {
    const waiting = readerWith({ waitMs: 1 });
    const decoding = waiting.read(HEAVY, 'acc_heavy');
    const waited: QrRead = await waiting.read(await qrPngBase64(CODE), 'acc_other');
    expect(waited).toEqual({ ok: false, retryable: true, reason: expect.stringMatching(/ocupados/) });
    await decoding;
    await waiting.close();

    const slow = readerWith({ decodeMs: 1 });
    expect(await slow.read(HEAVY, 'acc_heavy')).toEqual({
      ok: false,
      retryable: false,
      reason: expect.stringMatching(/não lido em 0.001 s/),
    });
  }, 60_000);
});
