// The corrections a run makes (books.md's table), each through the engine's own idempotent settlement
// of that operation, so that a correction made twice — by a retried step, by a later run, or racing
// the operation's workflow — moves money once: a pending charge the PSP saw paid is approved, a pending
// transfer or refund the PSP settled is settled or released, a MED devolução the PSP made is recorded.
// The events each records are dispatched, and the operation's workflow, when it still runs, is woken:
// it confirms with the route, finds the operation settled and ends with it.
import { settleChargePaid } from '../charges/lifecycle.js';
import { notifyChargePaid } from '../charges/workflow-client.js';
import { recordRouteMedReturn } from '../meds/route-returns.js';
import type { RouteReceivedRecord, RouteRefundRecord, RouteSentRecord } from '../pix-routes/route-records.js';
import { settleRefundApproved, settleRefundFailed } from '../refunds/lifecycle.js';
import { notifyRefundAnswered } from '../refunds/workflow-client.js';
import type { Deps } from '../runtime/deps.js';
import { settleTransferApproved, settleTransferFailed } from '../transfers/lifecycle.js';
import { notifyTransferAnswered } from '../transfers/workflow-client.js';
import { dispatchEvent } from '../webhooks/dispatch.js';
import type { Action } from './match.js';
import { settleSuspenseRefund } from './resolve-refund.js';

/** Whether the engine now agrees with the PSP (false: the operation had already ended otherwise). */
export type Corrected = Promise<boolean>;

async function dispatched(deps: Deps, eventIds: string[]): Promise<void> {
  for (const eventId of eventIds) await dispatchEvent(deps, eventId);
}

/** late_settlement: the pending charge is approved by the Pix the PSP lists, as its workflow would settle it. */
export async function settleLateCharge(deps: Deps, transactionId: string, pix: RouteReceivedRecord): Corrected {
  const payer = Object.fromEntries(Object.entries(pix.payer).filter(([, value]) => value !== null)) as { name?: string; document?: string };
  const settled = await settleChargePaid(deps, transactionId, {
    status: 'paid',
    paidAt: pix.at.toISOString(),
    amountCents: pix.amountCents,
    payer,
    endToEndId: pix.endToEndId,
  });
  await dispatched(deps, settled.eventIds);
  await notifyChargePaid(deps, transactionId);
  return settled.transaction.status === 'approved';
}

type Settlement = Extract<Action, { type: 'settle_transfer' | 'settle_refund' | 'settle_suspense_refund' }>;

/** transfer_unsettled: the pending transfer is settled (approved) or released (failed) as the envio says. */
export async function settleEnvio(deps: Deps, transferId: string, envio: RouteSentRecord, action: Settlement): Corrected {
  const settled =
    action.outcome === 'approved'
      ? await settleTransferApproved(deps, transferId, envio.at.toISOString())
      : await settleTransferFailed(deps, transferId, action.reason ?? 'Pix não realizado pelo PSP');
  await dispatched(deps, settled.eventIds);
  await notifyTransferAnswered(deps, transferId);
  return settled.transaction.status === action.outcome;
}

/** refund_unsettled: the pending refund (or devolução from suspense) is settled or released as the devolução says. */
export async function settleDevolucao(deps: Deps, refundId: string, devolucao: RouteRefundRecord, action: Settlement): Corrected {
  if (action.type === 'settle_suspense_refund') return settleSuspenseRefund(deps, refundId, action.outcome, action.reason);
  const settledAt = (devolucao.settledAt ?? devolucao.requestedAt).toISOString();
  const settled =
    action.outcome === 'approved'
      ? await settleRefundApproved(deps, refundId, settledAt)
      : await settleRefundFailed(deps, refundId, action.reason ?? 'Devolução não realizada pelo PSP');
  await dispatched(deps, settled.eventIds);
  await notifyRefundAnswered(deps, refundId);
  return settled.transaction.status === action.outcome;
}

/** med_unrecorded: the MED devolução is recorded once, as when a PSP webhook names its Pix (src/meds/route-returns.ts). */
export async function recordMedDevolucao(deps: Deps, transactionId: string, devolucao: RouteRefundRecord): Corrected {
  const returnedAt = devolucao.settledAt ?? devolucao.requestedAt;
  const eventIds = await recordRouteMedReturn(deps, transactionId, {
    id: devolucao.id,
    nature: devolucao.nature,
    amountCents: devolucao.amountCents,
    returnedAt,
  });
  await dispatched(deps, eventIds);
  return eventIds.length > 0;
}
