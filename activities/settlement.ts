// What a settlement activity answers: the settled transaction and the events recorded with it. Runs
// patched with SETTLE_DISPATCHES_EVENTS ask the activity to dispatch those events itself (one
// activity instead of one per event); a retry dispatches the same events again, which starts nothing
// new. Runs started before the patch call without options and dispatch each event themselves.
import type { Deps } from '../src/deps.js';
import type { Settled } from '../src/transactions/settle.js';
import { dispatchEvent } from '../src/webhooks/dispatch.js';
import type { SettleOptions } from '../workflows/transaction.contract.js';

export async function settlement(deps: Deps, settling: Promise<Settled>, options?: SettleOptions): Promise<Settled> {
  const settled = await settling;
  if (options?.dispatch) for (const eventId of settled.eventIds) await dispatchEvent(deps, eventId);
  return settled;
}
