// One workflow per MED, id `med:<med id>`. It opens the MED (the admin API waits on the `opened`
// update), then waits durably for the decision, delivered as the `decide` update. When the
// decision deadline passes first, operators are alerted once and the MED keeps waiting.
import { allHandlersFinished, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { MedActivities } from './activities.js';
import type { WebhookActivities } from '../../activities/webhooks.js';
import { HEARTBEAT_TIMEOUT } from '../../contracts/heartbeat.contract.js';
import { decideUpdate, openedUpdate, type MedChangeResult, type MedWorkflow } from './contract.js';

const activities = proxyActivities<MedActivities & Pick<WebhookActivities, 'dispatchEvent'>>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

async function dispatchAll(eventIds: string[]): Promise<void> {
  for (const eventId of eventIds) await activities.dispatchEvent(eventId);
}

export const medWorkflow: MedWorkflow = async (input) => {
  let opened: MedChangeResult | null = null;
  let decision: MedChangeResult | null = null;

  setHandler(openedUpdate, async () => {
    await condition(() => opened !== null);
    return opened!;
  });

  setHandler(decideUpdate, async (outcome) => {
    await condition(() => opened !== null);
    if (!opened!.ok) return opened!;
    const result = await activities.decideMed(input.open.medId, outcome);
    if (result.ok) {
      decision ??= result;
      await dispatchAll(result.eventIds);
    }
    return result;
  });

  opened = await activities.openMed(input.open);
  if (!opened.ok) {
    await condition(allHandlersFinished);
    return opened;
  }
  await dispatchAll(opened.eventIds);

  const decidedInTime = await condition(() => decision !== null, input.open.deadlineSeconds * 1000);
  if (!decidedInTime) {
    await dispatchAll(await activities.markMedOverdue(input.open.medId));
    await condition(() => decision !== null);
  }
  await condition(allHandlersFinished);
  return decision!;
};
