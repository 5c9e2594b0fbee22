// Transfer activities: thin wrappers over src/transfers/lifecycle.ts.
import type { Deps } from '../src/runtime/deps.js';
import { notifyChargePaid } from '../src/charges/workflow-client.js';
import { transferRoute } from '../src/pix-routes/registry.js';
import * as lifecycle from '../src/transfers/lifecycle.js';
import type { SettleOptions } from '../contracts/transaction.contract.js';
import type { AcceptedTransfer, TransferDraft } from '../contracts/transfer.contract.js';
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

/** The settlement's events are dispatched as the workflow's settle step dispatches them (SETTLE_DISPATCHES_EVENTS). */
const DISPATCH: SettleOptions = { dispatch: true, firstAttemptNow: true };

/**
 * The accept step of TRANSFER_SETTLES_IN_ACCEPT: persistAndSendTransfer, then, when the route's answer
 * is final, the settlement. A settlement that fails is left to the workflow's own settle step, which
 * retries it, as a failed send is left to its send step: a retry of this activity would find the
 * transfer persisted already and answer the API's request as a repeat.
 */
async function acceptTransfer(deps: Deps, lifecycleDeps: lifecycle.TransferLifecycleDeps, draft: TransferDraft): Promise<AcceptedTransfer> {
  const accepted = await lifecycle.persistAndSendTransfer(lifecycleDeps, draft);
  if (!('sent' in accepted) || accepted.sent.status === 'pending') return accepted;
  const { sent } = accepted;
  const settling =
    sent.status === 'approved'
      ? lifecycle.settleTransferApproved(lifecycleDeps, draft.transactionId, sent.settledAt)
      : lifecycle.settleTransferFailed(lifecycleDeps, draft.transactionId, sent.reason);
  try {
    return { ...accepted, sent, settled: await settlement(deps, settling, DISPATCH) };
  } catch {
    return accepted;
  }
}

export function transferActivities(deps: Deps) {
  const lifecycleDeps = transferLifecycleDeps(deps);
  return {
    acceptTransfer: (draft: TransferDraft) => acceptTransfer(deps, lifecycleDeps, draft),
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
