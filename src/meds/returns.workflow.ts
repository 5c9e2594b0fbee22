// One run per check of a received Pix for MED devoluções (src/meds/returns.contract.ts): one
// activity asks the route and records each devolução once, dispatching its events. A route that is
// down is asked again, backing off to a minute, until it answers.
import { proxyActivities } from '@temporalio/workflow';
import type { MedActivities } from './activities.js';
import { HEARTBEAT_TIMEOUT } from '../../contracts/heartbeat.contract.js';
import type { MedReturnsWorkflow } from './returns.contract.js';

const { recordMedReturnsAtRoute } = proxyActivities<MedActivities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export const medReturnsWorkflow: MedReturnsWorkflow = (input) => recordMedReturnsAtRoute(input);
