// acceptTransfer over a fake's own steps, as activities/transfers.ts composes it for the workflow tests:
// persist and send, then, when the route's answer at the hand-over is final, settle in the same step
// with the settlement's events dispatched.
import type { TransferActivities } from '../../activities/transfers.js';

type Steps = Pick<TransferActivities, 'persistAndSendTransfer' | 'settleTransferApproved' | 'settleTransferFailed'>;

export function acceptTransferOver(steps: Steps): TransferActivities['acceptTransfer'] {
  return async (draft) => {
    const accepted = await steps.persistAndSendTransfer(draft);
    if (!('sent' in accepted) || accepted.sent.status === 'pending') return accepted;
    const { sent } = accepted;
    const dispatch = { dispatch: true, firstAttemptNow: true };
    const settled =
      sent.status === 'approved'
        ? await steps.settleTransferApproved(draft.transactionId, sent.settledAt, dispatch)
        : await steps.settleTransferFailed(draft.transactionId, sent.reason, dispatch);
    return { ...accepted, sent, settled };
  };
}
