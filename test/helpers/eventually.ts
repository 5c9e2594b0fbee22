import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `probe` until it returns something other than undefined/false ("not yet"), or fails after
 * `timeoutMs`. A probe that throws has given a wrong answer, not a late one: the error fails the wait at
 * once (a failed `expect` inside the probe, a 500 the probe refuses), so nothing wrong is retried away.
 * A probe that must tolerate a transient error catches it itself and returns undefined. `lastSeen`
 * says, in the timeout's message, what the probe saw last.
 */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 50,
  lastSeen?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await sleep(everyMs);
  }
  throw new Error(`condition not met within ${timeoutMs} ms${lastSeen ? `; ${lastSeen()}` : ''}`);
}
