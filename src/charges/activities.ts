// Charge activities: thin wrappers over src/charges/lifecycle.ts (and, for a cycle charge, the
// confirmation of its recurrence's cancellation in src/recurrences/lifecycle.ts).
import type { Deps } from '../runtime/deps.js';
import * as lifecycle from './lifecycle.js';
import { cycleCancelledByRecurrence } from '../recurrences/lifecycle.js';
import type { SettleOptions } from '../../contracts/transaction.contract.js';
import type { ConfirmedCharge } from './contract.js';
import { settlement, type webhookActivities } from '../../activities/webhooks.js';

export function chargeActivities(deps: Deps) {
  const settleChargePaid = (transactionId: string, paid: Parameters<typeof lifecycle.settleChargePaid>[2], options?: SettleOptions) =>
    settlement(deps, lifecycle.settleChargePaid(deps, transactionId, paid), options);
  return {
    persistCharge: (input: Parameters<typeof lifecycle.persistCharge>[1]) => lifecycle.persistCharge(deps, input),
    persistAndOpenCharge: (input: Parameters<typeof lifecycle.persistCharge>[1]) => lifecycle.persistAndOpenCharge(deps, input),
    openChargeAtRoute: (transactionId: string) => lifecycle.openChargeAtRoute(deps, transactionId),
    chargeStateAtRoute: (transactionId: string) => lifecycle.chargeStateAtRoute(deps, transactionId),
    /** The route's state; a paid charge is settled at once, on that answer (CONFIRM_AND_SETTLE). */
    confirmChargeAtRoute: async (transactionId: string, options?: SettleOptions): Promise<ConfirmedCharge> => {
      const state = await lifecycle.chargeStateAtRoute(deps, transactionId);
      if (state.status !== 'paid') return { state };
      return { state, settled: await settleChargePaid(transactionId, state, options) };
    },
    cancelChargeAtRoute: (transactionId: string, reason?: 'expired' | 'other') =>
      lifecycle.cancelChargeAtRoute(deps, transactionId, reason),
    retryCycleAtRoute: (transactionId: string, day: string) => lifecycle.retryCycleAtRoute(deps, transactionId, day),
    /** Whether a cycleCancelled signal is true (CYCLE_CANCELLATION_CONFIRMED). */
    cycleCancelledByRecurrence: (transactionId: string) => cycleCancelledByRecurrence(deps, transactionId),
    settleChargePaid,
    settleChargeCancelled: (transactionId: string, expired: boolean, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleChargeCancelled(deps, transactionId, expired), options),
    settleChargeFailed: (transactionId: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleChargeFailed(deps, transactionId), options),
  };
}

/** What the charge workflow calls: these and, in runs started before SETTLE_DISPATCHES_EVENTS, the webhook machinery's `dispatchEvent`. */
export type ChargeActivities = ReturnType<typeof chargeActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
