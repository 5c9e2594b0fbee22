// The bare Temporal baseline of bench/charges.ts: a workflow started by update-with-start whose update
// runs one no-op activity, then (like a charge waiting for its payment) waits on a durable timer.
import { condition, defineUpdate, proxyActivities, setHandler, sleep } from '@temporalio/workflow';

export const acceptBaselineUpdate = defineUpdate<string, []>('accept');

const { noop } = proxyActivities<{ noop(): Promise<string> }>({ startToCloseTimeout: '10 seconds' });

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
