// The bare Temporal baselines, run by bench/baseline/worker.ts on a task queue of their own.
// bench/charges.ts: a workflow started by update-with-start whose update runs one no-op activity, then
// (like a charge waiting for its payment) waits on a durable timer.
// bench/webhooks.ts: a workflow waiting for a payment signal that then POSTs a signed notice from a local
// activity: the least a payment's path to its webhook can cost here (signal, one workflow task, one POST).
import {
  condition,
  defineSignal,
  defineUpdate,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';

export const acceptBaselineUpdate = defineUpdate<string, []>('accept');
export const paidBaselineSignal = defineSignal('paid');

export interface BaselineActivities {
  noop(): Promise<string>;
  /** POSTs `{"event":"baseline.paid","id":id}` to `url`, signed as the engine signs a webhook. */
  notify(url: string, id: string): Promise<void>;
}

const { noop } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '10 seconds' });
const { notify } = proxyLocalActivities<BaselineActivities>({ startToCloseTimeout: '10 seconds' });

export async function baselineWorkflow(): Promise<void> {
  let accepted = false;
  setHandler(acceptBaselineUpdate, async () => {
    const answer = await noop();
    accepted = true;
    return answer;
  });
  await condition(() => accepted);
  await sleep('15 minutes');
}

export async function paymentBaselineWorkflow(url: string): Promise<void> {
  let paid = false;
  setHandler(paidBaselineSignal, () => {
    paid = true;
  });
  await condition(() => paid);
  await notify(url, workflowInfo().workflowId);
}
