// Transfer activities: thin wrappers over src/transfers/lifecycle.ts.
import type { Deps } from '../src/runtime/deps.js';
import { notifyChargePaid } from '../src/charges/workflow-client.js';
import { transferRoute } from '../src/pix-routes/registry.js';
import * as lifecycle from '../src/transfers/lifecycle.js';
import type { SettleOptions } from '../contracts/transaction.contract.js';
import type { TransferDraft } from '../contracts/transfer.contract.js';
import { settlement, type webhookActivities } from './webhooks.js';

function transferLifecycleDeps(deps: Deps): lifecycle.TransferLifecycleDeps {
  return {
    sql: deps.sql,
    expirySeconds: deps.config.chargeTtlSeconds,
    transferRoute: (name) =>
      transferRoute(
        {
          sql: deps.sql,
          config: deps.config,
          log: deps.log,
          simulatorTransferDelayMs: deps.config.simulatorTransferDelayMs,
          onChargePaid: (charge) => notifyChargePaid(deps, charge.transactionId),
        },
        name,
      ),
  };
}

export function transferActivities(deps: Deps) {
  const lifecycleDeps = transferLifecycleDeps(deps);
  return {
    persistTransfer: (draft: TransferDraft) => lifecycle.persistTransfer(lifecycleDeps, draft),
    persistAndSendTransfer: (draft: TransferDraft) => lifecycle.persistAndSendTransfer(lifecycleDeps, draft),
    sendTransferAtRoute: (draft: TransferDraft) => lifecycle.sendTransferAtRoute(lifecycleDeps, draft),
    transferStateAtRoute: (transactionId: string) => lifecycle.transferStateAtRoute(lifecycleDeps, transactionId),
    settleTransferApproved: (transactionId: string, settledAt: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleTransferApproved(lifecycleDeps, transactionId, settledAt), options),
    settleTransferFailed: (transactionId: string, reason: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleTransferFailed(lifecycleDeps, transactionId, reason), options),
  };
}

/** What the transfer workflow calls: these and, in runs started before SETTLE_DISPATCHES_EVENTS, the webhook machinery's `dispatchEvent`. */
export type TransferActivities = ReturnType<typeof transferActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
