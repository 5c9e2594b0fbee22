// Polling an HTTP read for a state the engine reaches later. Only the answers a call names as "not yet"
// are read again; any other status fails the wait at once with the answer's text, so that a 5xx or an
// unexpected refusal is never retried away as if it were slowness.
import { eventually } from './eventually.js';
import type { HttpResult } from './stack.js';

export interface PollOptions {
  /** The statuses whose answer `until` reads: 200 unless given. */
  ready?: readonly number[];
  /**
   * The answers that mean "not yet" for this read, named per call: the statuses (202 while an operation is
   * being accepted, 404 where the resource may not exist yet), or a test of the answer when the status
   * alone does not say it (a 409 whose message says the network has not got the transfer yet).
   */
  notYet?: readonly number[] | ((res: HttpResult) => boolean);
  timeoutMs?: number;
  everyMs?: number;
}

/**
 * Reads `read` until `until` returns a value (not undefined) for an answer of a `ready` status, and
 * returns that value; `until` returning undefined is "not yet" too (a 200 whose state is not yet the one
 * wanted). A `notYet` answer is read again; any other answer throws at once, naming its status and text.
 */
export async function poll<T>(
  read: () => Promise<HttpResult>,
  until: (res: HttpResult) => T | undefined,
  { ready = [200], notYet = [], timeoutMs = 20_000, everyMs = 100 }: PollOptions = {},
): Promise<T> {
  const isNotYet = typeof notYet === 'function' ? notYet : (res: HttpResult) => notYet.includes(res.status);
  let last: HttpResult | undefined;
  return eventually(
    async () => {
      last = await read();
      if (ready.includes(last.status)) return until(last);
      if (isNotYet(last)) return undefined;
      throw new Error(`unexpected answer ${last.status} while polling: ${last.text}`);
    },
    timeoutMs,
    everyMs,
    () => (last ? `last answer ${last.status}: ${last.text}` : 'no answer yet'),
  );
}
