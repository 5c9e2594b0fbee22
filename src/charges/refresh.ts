// GET /transactions/{id}?refresh=true on a pending charge: the charge's workflow asks the route for
// the latest state (an update), settles if the route says paid, and the read model is read again.
// Refreshes of one charge coalesce: while one is in flight in this process, later callers share its
// answer (the workflow does the same for refreshes from several processes). A refresh that cannot
// be served (the route too slow to answer within ACCEPT_WAIT_MS, Temporal refusing the update: the
// charge took its refreshes, too many updates in flight, Temporal unreachable) answers the state
// already known, as the read model holds it.
import {
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import type { Deps } from '../runtime/deps.js';
import { findTransaction } from '../transactions/repository.js';
import type { TransactionRow } from '../transactions/row.js';
import { refreshAtRoute } from './workflow-client.js';

type RefreshDeps = Pick<Deps, 'sql' | 'temporal' | 'config' | 'log'>;

const inFlight = new Map<string, Promise<TransactionRow>>();

const unservable = (err: unknown) =>
  err instanceof WorkflowUpdateFailedError || err instanceof ServiceError || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError;

async function refreshed(deps: RefreshDeps, row: TransactionRow): Promise<TransactionRow> {
  try {
    await refreshAtRoute(deps, row.accountId, row.externalId);
  } catch (err) {
    // WorkflowNotFoundError: the workflow finished meanwhile, and the read model holds the final state.
    if (!(err instanceof WorkflowNotFoundError)) {
      if (!unservable(err)) throw err;
      deps.log.warn({ err, transactionId: row.id }, 'refresh not served: answering the state already known');
    }
  }
  return (await findTransaction(deps.sql, row.accountId, row.id)) ?? row;
}

export function refreshCharge(deps: RefreshDeps, row: TransactionRow): Promise<TransactionRow> {
  if (row.type !== 'payment' || row.status !== 'pending') return Promise.resolve(row);
  let refresh = inFlight.get(row.id);
  if (!refresh) {
    refresh = refreshed(deps, row).finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, refresh);
  }
  return refresh;
}
