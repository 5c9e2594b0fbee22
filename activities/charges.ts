// Charge activities: thin wrappers over src/charges/lifecycle.ts.
import type { Deps } from '../src/deps.js';
import * as lifecycle from '../src/charges/lifecycle.js';
import type { webhookActivities } from './webhooks.js';

export function chargeActivities(deps: Deps) {
  return {
    persistCharge: (input: Parameters<typeof lifecycle.persistCharge>[1]) => lifecycle.persistCharge(deps, input),
    openChargeAtRoute: (transactionId: string) => lifecycle.openChargeAtRoute(deps, transactionId),
    chargeStateAtRoute: (transactionId: string) => lifecycle.chargeStateAtRoute(deps, transactionId),
    cancelChargeAtRoute: (transactionId: string) => lifecycle.cancelChargeAtRoute(deps, transactionId),
    settleChargePaid: (transactionId: string, paid: Parameters<typeof lifecycle.settleChargePaid>[2]) =>
      lifecycle.settleChargePaid(deps, transactionId, paid),
    settleChargeCancelled: (transactionId: string, expired: boolean) => lifecycle.settleChargeCancelled(deps, transactionId, expired),
    settleChargeFailed: (transactionId: string) => lifecycle.settleChargeFailed(deps, transactionId),
  };
}

/** What the charge workflow calls: these and the webhook machinery's `dispatchEvent`. */
export type ChargeActivities = ReturnType<typeof chargeActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
