// A call the API makes to Temporal and waits for only so long (ACCEPT_WAIT_MS). The call carries a
// deadline shortly after the wait, and a wait that runs out ends only once that deadline has passed, so
// that nothing of the request reaches Temporal after its answer. Without it the client would go on
// sending the call (it retries an unreachable Temporal from a timer, which an abort signal does not
// stop), and a start answered 503 could still start its workflow later: an operation nobody asked for any more.
import { isGrpcDeadlineError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';

/** How long a call may still be sent after the wait ran out (a healthy Temporal takes milliseconds). */
const CALL_GRACE_MS = 500;

/** The call's answer, or TIMED_OUT once the wait ran out and the call can send nothing more; its failure within the wait is thrown. */
export async function withinAcceptWait<T>(deps: Pick<Deps, 'temporal' | 'config'>, call: () => Promise<T>): Promise<T | typeof TIMED_OUT> {
  const deadline = Date.now() + deps.config.acceptWaitMs + CALL_GRACE_MS;
  const sent = deps.temporal.withDeadline(deadline, call);
  const result = await within(
    sent.catch((err: unknown) => (isGrpcDeadlineError(err) ? TIMED_OUT : Promise.reject(err))),
    deps.config.acceptWaitMs,
  );
  if (result !== TIMED_OUT) return result;
  await within(
    sent.catch(() => undefined),
    Math.max(0, deadline - Date.now()),
  );
  return TIMED_OUT;
}
