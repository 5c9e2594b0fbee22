// Transfer activities: thin wrappers over src/transfers/lifecycle.ts.
import type { Deps } from '../runtime/deps.js';
import { notifyChargePaid } from '../charges/workflow-client.js';
import { transferRoute } from '../pix-routes/registry.js';
import * as lifecycle from './lifecycle.js';
import { DISPATCH_AT_ONCE, type Settled, type SettleOptions } from '../../contracts/transaction.contract.js';
import type { AcceptedTransfer, PersistedTransfer, TransferDraft } from './contract.js';
import { settlement, type webhookActivities } from '../../activities/webhooks.js';

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
  /** `routeRef`: a final answer's route reference, left for the settlement to write. */
  persistAndSendTransfer(draft: TransferDraft): Promise<PersistedTransfer & { routeRef?: string }>;
  settleTransferApproved(transactionId: string, settledAt: string, options?: SettleOptions, routeRef?: string): Promise<Settled>;
  settleTransferFailed(transactionId: string, reason: string, options?: SettleOptions, routeRef?: string): Promise<Settled>;
  /** Writes the route reference a settlement that failed did not. */
  rememberRouteRef(transactionId: string, routeRef: string): Promise<void>;
}

/**
 * The accept step of TRANSFER_SETTLES_IN_ACCEPT: persistAndSendTransfer, then, when the route's answer
 * is final, the settlement (which writes the route's reference too), its events dispatched as the
 * workflow's settle step would. A settlement that fails is left to the workflow's own settle step,
 * which retries it, as a failed send is left to its send step (the reference is written then, without
 * waiting for it): a retry of this activity would find the transfer persisted already and answer the
 * API's request as a repeat.
 */
export function acceptTransferWith(steps: AcceptSteps): (draft: TransferDraft) => Promise<AcceptedTransfer> {
  return async (draft) => {
    const { routeRef, ...accepted } = await steps.persistAndSendTransfer(draft);
    if (!('sent' in accepted) || accepted.sent.status === 'pending') return accepted;
    const { sent } = accepted;
    const settling =
      sent.status === 'approved'
        ? steps.settleTransferApproved(draft.transactionId, sent.settledAt, DISPATCH_AT_ONCE, routeRef)
        : steps.settleTransferFailed(draft.transactionId, sent.reason, DISPATCH_AT_ONCE, routeRef);
    try {
      return { ...accepted, sent, settled: await settling };
    } catch {
      if (routeRef !== undefined) await steps.rememberRouteRef(draft.transactionId, routeRef).catch(() => undefined);
      return accepted;
    }
  };
}

export function transferActivities(deps: Deps) {
  const lifecycleDeps = transferLifecycleDeps(deps);
  const settleSteps = {
    settleTransferApproved: (transactionId: string, settledAt: string, options?: SettleOptions, routeRef?: string) =>
      settlement(deps, lifecycle.settleTransferApproved(lifecycleDeps, transactionId, settledAt, routeRef), options),
    settleTransferFailed: (transactionId: string, reason: string, options?: SettleOptions, routeRef?: string) =>
      settlement(deps, lifecycle.settleTransferFailed(lifecycleDeps, transactionId, reason, routeRef), options),
  };
  return {
    ...settleSteps,
    acceptTransfer: acceptTransferWith({
      ...settleSteps,
      persistAndSendTransfer: (draft) => lifecycle.persistAndSendTransfer(lifecycleDeps, draft, { refWithSettlement: true }),
      rememberRouteRef: (transactionId, routeRef) => lifecycle.rememberRouteRef(deps.sql, transactionId, routeRef),
    }),
    persistAndSendTransfer: (draft: TransferDraft) => lifecycle.persistAndSendTransfer(lifecycleDeps, draft),
    persistTransfer: (draft: TransferDraft) => lifecycle.persistTransfer(lifecycleDeps, draft),
    sendTransferAtRoute: (draft: TransferDraft) => lifecycle.sendTransferAtRoute(lifecycleDeps, draft),
    transferStateAtRoute: (transactionId: string) => lifecycle.transferStateAtRoute(lifecycleDeps, transactionId),
  };
}

/** What the transfer workflow calls: these and, in runs started before SETTLE_DISPATCHES_EVENTS, the webhook machinery's `dispatchEvent`. */
export type TransferActivities = ReturnType<typeof transferActivities> & Pick<ReturnType<typeof webhookActivities>, 'dispatchEvent'>;
