// Runs in the QR decoder's worker threads (qr-reader.ts).
export { decodeQrPngBase64 as default } from './qrcode.js';
