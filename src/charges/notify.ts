// The network's notification that a charge was paid, turned into a signal to the charge's workflow.
// A lost notification costs latency only: the workflow also asks the route at expiry and on refresh.
import type { Deps } from '../deps.js';
import { paymentNotifiedSignal } from '../../workflows/charge.js';
import { chargeWorkflowId } from './ids.js';

export async function notifyChargePaid(deps: Pick<Deps, 'sql' | 'temporal' | 'log'>, transactionId: string): Promise<void> {
  const [charge] = await deps.sql<{ account_id: string; external_id: string }[]>`
    select account_id, external_id from transactions where id = ${transactionId} and type = 'payment'`;
  if (!charge) {
    deps.log.warn({ transactionId }, 'payment notification for an unknown charge');
    return;
  }
  try {
    await deps.temporal.workflow.getHandle(chargeWorkflowId(charge.account_id, charge.external_id)).signal(paymentNotifiedSignal);
  } catch (err) {
    deps.log.warn({ err, transactionId }, 'payment notification not delivered to the workflow; expiry or refresh will settle it');
  }
}
