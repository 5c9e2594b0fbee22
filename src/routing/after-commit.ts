// What a simulator route does after the network committed its answer (a payment, a transfer's
// outcome) can fail or hang (Temporal down, a database connection cut) without changing what was
// committed: such steps are best-effort, bounded by ACCEPT_WAIT_MS, and their failure is only logged,
// so the route still answers the committed result (a 500 would send the client into a retry that the
// network refuses as already done). The engine learns the outcome anyway: its workflows poll.
import { within } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';

/** Runs `step` for at most ACCEPT_WAIT_MS; its failure is logged with `context`, never thrown. */
export async function afterCommit(
  deps: Pick<Deps, 'config' | 'log'>,
  context: Record<string, unknown>,
  step: () => Promise<unknown>,
): Promise<void> {
  const attempted = step().catch((err) =>
    deps.log.warn({ err, ...context }, 'simulator: step after the commit failed; the committed result stands'),
  );
  await within(attempted, deps.config.acceptWaitMs);
}
