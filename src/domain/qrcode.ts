// QR code images of BR Codes: PNG as bare base64 (no data: prefix), as the spec's qrCodeBase64.
import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import jsQRModule from 'jsqr';
import { grayscale1BitPng } from './png.js';

// jsqr is CommonJS whose types declare an ES default export: under NodeNext it sits on `.default`.
const jsQR = jsQRModule.default;

/** Modules of quiet zone around the symbol, as ISO/IEC 18004 asks. */
const QUIET_ZONE = 4;
/** The image is at least this wide, in whole pixels per module so that module edges stay sharp. */
const MIN_SIDE_PX = 300;

export async function qrPngBase64(text: string): Promise<string> {
  // One byte-mode segment: a BR Code is mostly byte-mode text, and choosing mixed segments costs more than it saves.
  const { modules } = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  const modulesPerSide = modules.size + 2 * QUIET_ZONE;
  const scale = Math.ceil(MIN_SIDE_PX / modulesPerSide);
  const side = modulesPerSide * scale;
  const rows: Buffer[] = [];
  for (let y = 0; y < modulesPerSide; y++) {
    const row = Buffer.alloc(Math.ceil(side / 8), 0xff);
    const my = y - QUIET_ZONE;
    if (my >= 0 && my < modules.size) {
      for (let mx = 0; mx < modules.size; mx++) {
        if (!modules.get(my, mx)) continue;
        for (let px = (mx + QUIET_ZONE) * scale, end = px + scale; px < end; px++) row[px >> 3]! &= ~(0x80 >> (px & 7));
      }
    }
    for (let i = 0; i < scale; i++) rows.push(row);
  }
  return grayscale1BitPng(side, rows).toString('base64');
}

// A QR code image of a BR Code is a few tens of kB and a few hundred pixels wide (ours: 1-bit, 300 to 400 px, under 2 kB);
// 2,000 px and 150 kB are far above any real one. A PNG's size is in its header: an image over budget is
// refused before a pixel is decoded (8000×8000 px of zeros compress to 10 kB and decode to 256 MB).
export const QR_IMAGE_LIMITS = { side: 2000, bytes: 150_000 } as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type QrImageCheck = { ok: true; png: Buffer } | { ok: false; reason: string };

export const UNREADABLE_QR = 'QR code ilegível (envie o BR Code ou a imagem PNG em base64)';

/** The budget of a QR image, from its size and PNG header (IHDR) alone. */
export function checkQrImage(base64: string): QrImageCheck {
  const png = Buffer.from(base64, 'base64');
  if (png.length > QR_IMAGE_LIMITS.bytes) return { ok: false, reason: `imagem de QR code com mais de ${QR_IMAGE_LIMITS.bytes} bytes` };
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR')
    return { ok: false, reason: UNREADABLE_QR };
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  if (width > QR_IMAGE_LIMITS.side || height > QR_IMAGE_LIMITS.side) {
    return { ok: false, reason: `imagem de QR code de ${width}×${height} px (máximo ${QR_IMAGE_LIMITS.side}×${QR_IMAGE_LIMITS.side})` };
  }
  // pngjs inflates an interlaced image without any output limit; QR generators do not interlace.
  if (png[28] !== 0) return { ok: false, reason: 'imagem de QR code em PNG entrelaçado (envie um PNG sem entrelaçamento)' };
  return { ok: true, png };
}

/**
 * Decodes the QR code of a base64 PNG within the budget; null when it is over budget, not a PNG or
 * holds no readable QR code. Takes up to seconds of CPU for a large image: requests use qr-reader.ts,
 * which runs it off the event loop.
 */
export function decodeQrPngBase64(base64: string): string | null {
  const check = checkQrImage(base64);
  if (!check.ok) return null;
  let image: PNG;
  try {
    image = PNG.sync.read(check.png);
  } catch {
    return null;
  }
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  return jsQR(pixels, image.width, image.height)?.data ?? null;
}
