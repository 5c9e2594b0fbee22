// The network's answer to a transfer, turned into a signal to the transfer's workflow, which then
// confirms the state with the route. A lost notification costs latency only: the workflow polls.
import type { Deps } from '../deps.js';
import { networkAnsweredSignal } from '../../workflows/transfer.js';
import { transferWorkflowId } from './ids.js';

export async function notifyTransferAnswered(deps: Pick<Deps, 'sql' | 'temporal' | 'log'>, transactionId: string): Promise<void> {
  const [transfer] = await deps.sql<{ account_id: string; external_id: string }[]>`
    select account_id, external_id from transactions where id = ${transactionId} and type = 'withdrawal'`;
  if (!transfer) {
    deps.log.warn({ transactionId }, 'network answer for an unknown transfer');
    return;
  }
  try {
    await deps.temporal.workflow.getHandle(transferWorkflowId(transfer.account_id, transfer.external_id)).signal(networkAnsweredSignal);
  } catch (err) {
    deps.log.warn({ err, transactionId }, 'network answer not delivered to the workflow; polling will settle it');
  }
}
