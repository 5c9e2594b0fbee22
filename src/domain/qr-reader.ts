// Reads the BR Code of a QR image off the event loop: pngjs and jsQR take ~0.1 s of CPU for a 300 px
// image and over a second at the 2,000 px budget, all of it blocking every request of the process if
// run inline. The size budget is checked here first, on the header alone (a bomb is refused at once);
// the decoding runs in a small pool of worker threads (piscina: reuse, and a time limit that
// terminates the thread still decoding), so at most one core decodes and the loop stays free.
// In front of the pool a fair queue (fair-queue.ts) takes turns between accounts: one account's
// heavy images wait behind each other, not in front of another account's image. Time spent waiting
// for a turn judges nothing about the image: a wait that runs out, or a full queue, is a retryable
// refusal (503); only a decode that ran out of its own time is the image's fault (400).
import { extname } from 'node:path';
import { Piscina } from 'piscina';
import { FairQueue, type FairQueueLimits } from './fair-queue.js';
import { checkQrImage, UNREADABLE_QR } from './qrcode.js';

export interface QrReadLimits extends Omit<FairQueueLimits, 'slots'> {
  /** Worker threads: decodes running at once. */
  threads: number;
  /** A decode's own time, from the moment it reaches a thread (the start of a thread, ~1 s under tsx, included). */
  decodeMs: number;
}

export const QR_READ_LIMITS: QrReadLimits = {
  threads: 1,
  decodeMs: 10_000,
  perAccount: 1,
  waiting: 16,
  perAccountWaiting: 4,
  waitMs: 10_000,
};

export type QrRead = { ok: true; text: string } | { ok: false; reason: string; retryable: boolean };

export interface QrReader {
  read(base64: string, accountId: string): Promise<QrRead>;
  close(): Promise<void>;
}

// Beside this module: TypeScript in the sources, JavaScript in their build (dist/).
const WORKER = new URL(`./qr-decode-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
const WORKER_NEEDS_TSX = WORKER.pathname.endsWith('.ts');

const BUSY_REASON = {
  full: 'Muitas imagens de QR code em leitura; tente novamente em instantes',
  waited: 'Leitores de QR code ocupados; tente novamente em instantes',
} as const;

export function qrReader(limits: QrReadLimits): QrReader {
  const queue = new FairQueue({ ...limits, slots: limits.threads });
  let pool: Piscina | undefined;
  const decoderPool = () =>
    (pool ??= new Piscina({
      filename: WORKER.href,
      minThreads: 0,
      maxThreads: limits.threads,
      idleTimeout: 60_000,
      // None given, a thread inherits the process's Node options; given the process's own, Node refuses the V8
      // flags the engine is launched with (scripts/launch.sh: ERR_WORKER_INVALID_EXEC_ARGV), which are the
      // thread's already. A TypeScript worker needs tsx, which a test runner may not have started the process with.
      execArgv: WORKER_NEEDS_TSX && !process.execArgv.includes('tsx') ? ['--import', 'tsx'] : undefined,
    }));

  async function decode(base64: string): Promise<QrRead> {
    try {
      const text: string | null = await decoderPool().run(base64, { signal: AbortSignal.timeout(limits.decodeMs) });
      return text === null ? { ok: false, reason: UNREADABLE_QR, retryable: false } : { ok: true, text };
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
      return { ok: false, reason: `QR code não lido em ${limits.decodeMs / 1000} s (envie o BR Code copia e cola)`, retryable: false };
    }
  }

  return {
    async read(base64, accountId) {
      const check = checkQrImage(base64);
      if (!check.ok) return { ...check, retryable: false };
      const turn = await queue.run(accountId, () => decode(base64));
      return turn.ran ? turn.value : { ok: false, reason: BUSY_REASON[turn.reason], retryable: true };
    },
    close: async () => pool?.destroy(),
  };
}

const reader = qrReader(QR_READ_LIMITS);

/** The BR Code of a base64 PNG sent by `accountId`, read by the process's decoder pool. */
export const readQrImage = (base64: string, accountId: string): Promise<QrRead> => reader.read(base64, accountId);
