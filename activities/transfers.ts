// Transfer activities: thin wrappers over src/transfers/lifecycle.ts.
import type { Deps } from '../src/runtime/deps.js';
import { notifyChargePaid } from '../src/charges/workflow-client.js';
import { transferRoute } from '../src/pix-routes/registry.js';
import * as lifecycle from '../src/transfers/lifecycle.js';
import { DISPATCH_AT_ONCE, type Settled, type SettleOptions } from '../contracts/transaction.contract.js';
import type { AcceptedTransfer, PersistedTransfer, TransferDraft } from '../contracts/transfer.contract.js';
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

/** The steps the accept step of TRANSFER_SETTLES_IN_ACCEPT is made of (the workflow tests give fakes of them). */
export interface AcceptSteps {
  persistAndSendTransfer(draft: TransferDraft): Promise<PersistedTransfer>;
  settleTransferApproved(transactionId: string, settledAt: string, options?: SettleOptions): Promise<Settled>;
  settleTransferFailed(transactionId: string, reason: string, options?: SettleOptions): Promise<Settled>;
}

/**
 * The accept step of TRANSFER_SETTLES_IN_ACCEPT: persistAndSendTransfer, then, when the route's answer
 * is final, the settlement, its events dispatched as the workflow's settle step would. A settlement
 * that fails is left to the workflow's own settle step, which retries it, as a failed send is left to
 * its send step: a retry of this activity would find the transfer persisted already and answer the
 * API's request as a repeat.
 */
export function acceptTransferWith(steps: AcceptSteps): (draft: TransferDraft) => Promise<AcceptedTransfer> {
  return async (draft) => {
    const accepted = await steps.persistAndSendTransfer(draft);
    if (!('sent' in accepted) || accepted.sent.status === 'pending') return accepted;
    const { sent } = accepted;
    const settling =
      sent.status === 'approved'
        ? steps.settleTransferApproved(draft.transactionId, sent.settledAt, DISPATCH_AT_ONCE)
        : steps.settleTransferFailed(draft.transactionId, sent.reason, DISPATCH_AT_ONCE);
    try {
      return { ...accepted, sent, settled: await settling };
    } catch {
      return accepted;
    }
  };
}

export function transferActivities(deps: Deps) {
  const lifecycleDeps = transferLifecycleDeps(deps);
  const acceptSteps = {
    persistAndSendTransfer: (draft: TransferDraft) => lifecycle.persistAndSendTransfer(lifecycleDeps, draft),
    settleTransferApproved: (transactionId: string, settledAt: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleTransferApproved(lifecycleDeps, transactionId, settledAt), options),
    settleTransferFailed: (transactionId: string, reason: string, options?: SettleOptions) =>
      settlement(deps, lifecycle.settleTransferFailed(lifecycleDeps, transactionId, reason), options),
  };
  return {
    ...acceptSteps,
    acceptTransfer: acceptTransferWith(acceptSteps),
    persistTransfer: (draft: TransferDraft) => lifecycle.persistTransfer(lifecycleDeps, draft),
    sendTransferAtRoute: (draft: TransferDraft) => lifecycle.sendTransferAtRoute(lifecycleDeps, draft),
    transferStateAtRoute: (transactionId: string) => lifecycle.transferStateAtRoute(lifecycleDeps, transactionId),
  };
}

/** What the transfer workflow calls: these and, in runs started before SETTLE_DISPATCHES_EVENTS, the webhook machinery's `dispatchEvent`. */
export type TransferActivities = ReturnType<typeof transferActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
