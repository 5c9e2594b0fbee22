import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it returns something other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    await sleep(everyMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
}
