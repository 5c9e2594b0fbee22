// One workflow per devolução from suspense (src/reconciliation/suspense-refund.contract.ts): ask the route,
// wait for its answer (signal, with polling as a fallback, as a refund does), settle once.
import { allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ReconciliationActivities } from './activities.js';
import { HEARTBEAT_TIMEOUT } from '../../contracts/heartbeat.contract.js';
import type { SuspenseRefundWorkflow } from './suspense-refund.contract.js';
import { remotePollDelayMs, TRANSACTION_ACTIVITY_RETRY as retry } from '../../contracts/transaction.contract.js';
import { networkAnsweredSignal, POLLS_PER_RUN, pollDelayMs } from '../transfers/contract.js';

const calls = proxyActivities<ReconciliationActivities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: HEARTBEAT_TIMEOUT, retry });

export const suspenseRefundWorkflow: SuspenseRefundWorkflow = async (input) => {
  const { itemId } = input;
  let notified = false;
  setHandler(networkAnsweredSignal, () => {
    notified = true;
  });
  const sent = await calls.sendSuspenseRefund(itemId);
  let state = sent.state;
  for (let poll = 0; state.status === 'pending'; poll++) {
    if (poll >= POLLS_PER_RUN) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof suspenseRefundWorkflow>(input);
    }
    await condition(() => notified, sent.remote ? remotePollDelayMs(poll) : pollDelayMs(poll));
    notified = false;
    state = await calls.suspenseRefundStateAtRoute(itemId);
  }
  await calls.settleSuspenseRefund(itemId, state.status, state.status === 'failed' ? state.reason : null);
  await condition(allHandlersFinished);
  return state.status;
};
