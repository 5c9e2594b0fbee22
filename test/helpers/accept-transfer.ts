// acceptTransfer over a fake's own steps, as activities/transfers.ts composes it for the workflow tests:
// persist and send, then, when the route's answer at the hand-over is final, settle in the same step
// with the settlement's events dispatched; a settlement that fails is left to the workflow's settle step.
import type { TransferActivities } from '../../activities/transfers.js';

type Steps = Pick<TransferActivities, 'persistAndSendTransfer' | 'settleTransferApproved' | 'settleTransferFailed'>;

export function acceptTransferOver(steps: Steps): TransferActivities['acceptTransfer'] {
  return async (draft) => {
    const accepted = await steps.persistAndSendTransfer(draft);
    if (!('sent' in accepted) || accepted.sent.status === 'pending') return accepted;
    const { sent } = accepted;
    const dispatch = { dispatch: true, firstAttemptNow: true };
    const settling =
      sent.status === 'approved'
        ? steps.settleTransferApproved(draft.transactionId, sent.settledAt, dispatch)
        : steps.settleTransferFailed(draft.transactionId, sent.reason, dispatch);
    // A settlement that fails is left to the workflow's own settle step.
    return settling.then(
      (settled) => ({ ...accepted, sent, settled }),
      () => accepted,
    );
  };
}
