// Reads the BR Code of a QR image off the event loop: pngjs and jsQR take ~0.1 s of CPU for a 300 px
// image and over a second at the 2,000 px budget, all of it blocking every request of the process if
// run inline. The size budget is checked here first, on the header alone (a bomb is refused at once);
// the decoding runs in a small pool of worker threads (piscina: queue bound, reuse, and a time limit
// that terminates the thread still decoding), so at most one core decodes and the loop stays free.
import { Piscina } from 'piscina';
import { checkQrImage, UNREADABLE_QR } from './qrcode.js';

// The time limit covers the wait in the queue and the start of a thread (~1 s: tsx compiles the worker) too.
export const QR_READ_LIMITS = { timeMs: 10_000, threads: 1, queue: 16 } as const;

export type QrRead = { ok: true; text: string } | { ok: false; reason: string; retryable: boolean };

const WORKER = new URL('./qr-decode-worker.ts', import.meta.url);

let pool: Piscina | undefined;

function decoderPool(): Piscina {
  pool ??= new Piscina({
    filename: WORKER.href,
    minThreads: 0,
    maxThreads: QR_READ_LIMITS.threads,
    maxQueue: QR_READ_LIMITS.queue,
    idleTimeout: 60_000,
    // The worker is TypeScript: it needs tsx like the process (which a test runner may not have started it with).
    execArgv: process.execArgv.includes('tsx') ? process.execArgv : [...process.execArgv, '--import', 'tsx'],
  });
  return pool;
}

export async function readQrImage(base64: string): Promise<QrRead> {
  const check = checkQrImage(base64);
  if (!check.ok) return { ...check, retryable: false };
  const decoder = decoderPool();
  if (decoder.queueSize >= QR_READ_LIMITS.queue) {
    return { ok: false, reason: 'Muitas imagens de QR code em leitura; tente novamente em instantes', retryable: true };
  }
  try {
    const text: string | null = await decoder.run(base64, { signal: AbortSignal.timeout(QR_READ_LIMITS.timeMs) });
    return text === null ? { ok: false, reason: UNREADABLE_QR, retryable: false } : { ok: true, text };
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
    return { ok: false, reason: `QR code não lido em ${QR_READ_LIMITS.timeMs / 1000} s (envie o BR Code copia e cola)`, retryable: false };
  }
}
