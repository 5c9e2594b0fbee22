// A route's notification about a pending transaction (a charge paid, a transfer answered), turned
// into a signal to the transaction's workflow, which then confirms the state with the route. A lost
// notification costs latency only: the workflows also ask the route (charges at expiry and on
// refresh, transfers by polling).
import type { SignalDefinition } from '@temporalio/common';
import type { Deps } from '../runtime/deps.js';
import type { TransactionType } from './row.js';

export interface TransactionSignal {
  type: TransactionType;
  signal: SignalDefinition<[]>;
  workflowId(accountId: string, key: string): string;
  /** What the warning says when no transaction of `type` has the id, and when the signal did not get through. */
  unknown: string;
  undelivered: string;
}

export async function signalTransactionWorkflow(
  deps: Pick<Deps, 'sql' | 'temporal' | 'log'>,
  transactionId: string,
  to: TransactionSignal,
): Promise<void> {
  const [row] = await deps.sql<{ account_id: string; external_id: string }[]>`
    select account_id, external_id from transactions where id = ${transactionId} and type = ${to.type}`;
  if (!row) {
    deps.log.warn({ transactionId }, to.unknown);
    return;
  }
  try {
    await deps.temporal.workflow.getHandle(to.workflowId(row.account_id, row.external_id)).signal(to.signal);
  } catch (err) {
    deps.log.warn({ err, transactionId }, to.undelivered);
  }
}
