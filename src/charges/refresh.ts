// GET /transactions/{id}?refresh=true on a pending charge: the charge's workflow asks the route for
// the latest state (an update), settles if the route says paid, and the read model is read again.
// A route too slow to answer within ACCEPT_WAIT_MS leaves the answer at the state already known.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Deps } from '../deps.js';
import { findTransaction } from '../transactions/repository.js';
import type { TransactionRow } from '../transactions/row.js';
import { refreshAtRoute } from './workflow-client.js';

export async function refreshCharge(deps: Pick<Deps, 'sql' | 'temporal' | 'config'>, row: TransactionRow): Promise<TransactionRow> {
  if (row.type !== 'payment' || row.status !== 'pending') return row;
  try {
    await refreshAtRoute(deps, row.accountId, row.externalId);
  } catch (err) {
    // The workflow finished meanwhile: the read model already holds the final state.
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  return (await findTransaction(deps.sql, row.accountId, row.id)) ?? row;
}
