// A minimal PNG writer for 1-bit grayscale images (what a QR code needs): the raster is 1/32 of the RGBA
// one a general encoder builds, so a charge's image costs well under a millisecond.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** `rows` are whole scanlines of `width` pixels, 8 per byte, most significant bit first, 1 = white. */
export function grayscale1BitPng(width: number, rows: Buffer[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(rows.length, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // color type: grayscale; compression, filter and interlace methods stay 0
  // Each scanline is preceded by its filter type, 0 (none): identical rows deflate to almost nothing anyway.
  const raw = Buffer.concat(rows.flatMap((row) => [Buffer.alloc(1), row]));
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
