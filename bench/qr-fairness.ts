// How long another account's valid QR image takes to read while one account keeps the decoder busy
// with large images (a security probe's load: four 2000×2000 px images at once), on the real decoder
// pool (worker threads) with its production limits, in this process.
//
//   node --import tsx bench/qr-fairness.ts [ROUNDS=5]
//
// Each round: the busy account sends four 2000 px images (two of them a real QR code, two blank), then
// the other account sends the 300 px image of a charge. Prints the other account's read time and
// outcomes, and the busy account's.
import QRCode from 'qrcode';
import { buildBrCode } from '../src/domain/brcode.js';
import { QR_READ_LIMITS, qrReader } from '../src/domain/qr-reader.js';
import { qrPngBase64, QR_IMAGE_LIMITS } from '../src/domain/qrcode.js';
import { pngBomb } from '../test/helpers/hostile-images.js';
import { quantile } from './measure.js';

const ROUNDS = Number(process.argv[2] ?? 5);
const CODE = buildBrCode({ pixKey: 'loja@example.com', amountCents: 1000, txid: 'pedido1', merchantName: 'Loja', merchantCity: 'Recife' });

async function main() {
  const reader = qrReader(QR_READ_LIMITS);
  const large = (await QRCode.toBuffer(CODE, { type: 'png', width: QR_IMAGE_LIMITS.side })).toString('base64');
  const heavy = [large, pngBomb(QR_IMAGE_LIMITS.side), large, pngBomb(QR_IMAGE_LIMITS.side)];
  const small = await qrPngBase64(CODE);
  const otherMs: number[] = [];
  const outcomes = new Map<string, number>();
  const count = (label: string) => outcomes.set(label, (outcomes.get(label) ?? 0) + 1);
  try {
    await reader.read(small, 'warm-up');
    for (let round = 0; round < ROUNDS; round += 1) {
      const busy = heavy.map((image) => reader.read(image, 'acc_busy'));
      const started = performance.now();
      const other = await reader.read(small, 'acc_other');
      otherMs.push(performance.now() - started);
      count(`other: ${other.ok ? 'read' : other.retryable ? '503' : '400'}`);
      for (const read of await Promise.all(busy)) count(`busy: ${read.ok ? 'read' : read.retryable ? '503' : '400'}`);
    }
  } finally {
    await reader.close();
  }
  otherMs.sort((a, b) => a - b);
  process.stdout.write(
    `other account's image while one account decodes 4 large ones (${ROUNDS} rounds): p50 ${Math.round(quantile(otherMs, 0.5))} ms, max ${Math.round(otherMs.at(-1)!)} ms\n` +
      `outcomes: ${[...outcomes].map(([label, n]) => `${label} ×${n}`).join(', ')}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
