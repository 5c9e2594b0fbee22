// Refund activities: thin wrappers over src/refunds/lifecycle.ts.
import type { Deps } from '../runtime/deps.js';
import { refundRoute } from '../pix-routes/registry.js';
import * as lifecycle from './lifecycle.js';
import type { SettleOptions } from '../../contracts/transaction.contract.js';
import type { RefundDraft } from './contract.js';
import { settlement, type webhookActivities } from '../../activities/webhooks.js';

export function refundActivities(deps: Deps) {
  const lifecycleDeps: lifecycle.RefundLifecycleDeps = {
    sql: deps.sql,
    refundRoute: (name) =>
      refundRoute(
        { sql: deps.sql, config: deps.config, log: deps.log, simulatorTransferDelayMs: deps.config.simulatorTransferDelayMs },
        name,
      ),
  };
  return {
    persistRefund: (draft: RefundDraft) => lifecycle.persistRefund(lifecycleDeps, draft),
    sendRefundAtRoute: (refundId: string) => lifecycle.sendRefundAtRoute(lifecycleDeps, refundId),
    refundStateAtRoute: (refundId: string) => lifecycle.refundStateAtRoute(lifecycleDeps, refundId),
    settleRefundApproved: (refundId: string, settledAt: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleRefundApproved(lifecycleDeps, refundId, settledAt), options),
    settleRefundFailed: (refundId: string, reason: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleRefundFailed(lifecycleDeps, refundId, reason), options),
  };
}

/** What the refund workflow calls: these and the webhook machinery's `dispatchEvent` (for `refund.created`). */
export type RefundActivities = ReturnType<typeof refundActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
