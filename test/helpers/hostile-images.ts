// Hostile inputs built by hand: PNG images whose header promises more than a QR code ever has, and
// BR Codes carrying text that buildBrCode (which cleans merchant names) would never write.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of side×side 1-bit grayscale pixels, all zero rows: a few kB that decode to side² × 4 bytes
 * (8000 px: 10 kB of base64, 256 MB decoded).
 */
export function pngBomb(side: number, options: { interlaced?: boolean } = {}): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  header[12] = options.interlaced ? 1 : 0;
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** `code` with its merchant name (EMV tag 59) replaced by `name`, as is, and a CRC that matches. */
export function withMerchantName(code: string, name: string): string {
  const start = code.indexOf('59', code.indexOf('5802BR') + 6);
  const end = start + 4 + Number(code.slice(start + 2, start + 4));
  const payload = `${code.slice(0, start)}59${String(name.length).padStart(2, '0')}${name}${code.slice(end, -4)}`;
  return `${payload}${crc16(payload)}`;
}
