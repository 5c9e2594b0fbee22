// The one way the engine signals a workflow it did not start in this request: a route's notification
// about a pending transaction (a charge paid, a transfer answered), a PSP webhook's hint. A transaction's
// id resolves to its workflow's id (its account and key), and the signal asks the workflow to confirm the
// state with the route. A lost signal costs latency only: the workflows also ask the route (charges at
// expiry and on refresh, transfers by polling).
import { WorkflowNotFoundError } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { Sql, TxSql } from '../db/database.js';
import type { Deps } from '../runtime/deps.js';
import type { TransactionType } from './row.js';

/** Which workflow a transaction's signal goes to: the one of its type, under the id of its account and key. */
export interface TransactionAddressee {
  type: TransactionType;
  signal: SignalDefinition<[]>;
  workflowId(accountId: string, key: string): string;
}

export interface TransactionSignal extends TransactionAddressee {
  /** What the warning says when no transaction of `type` has the id, and when the signal did not get through. */
  unknown: string;
  undelivered: string;
}

/** signalled: the workflow got it; finished: no run has the id any more (it ended); failed: Temporal refused or did not answer. */
export type SignalOutcome = { outcome: 'signalled' | 'finished' } | { outcome: 'failed'; err: unknown };

/**
 * The workflow id each asked transaction's signal goes to, in the order asked; null when no transaction
 * has the id or it is not of its addressee's type. One query for any number.
 */
export async function addressTransactions(
  sql: Sql | TxSql,
  asked: readonly { transactionId: string; to: TransactionAddressee }[],
): Promise<(string | null)[]> {
  if (asked.length === 0) return [];
  const ids = [...new Set(asked.map((ask) => ask.transactionId))];
  const rows = await sql<{ id: string; type: string; account_id: string; external_id: string }[]>`
    select id, type, account_id, external_id from transactions where id = any(${ids}::text[])`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return asked.map(({ transactionId, to }) => {
    const row = byId.get(transactionId);
    return row?.type === to.type ? to.workflowId(row.account_id, row.external_id) : null;
  });
}

export async function signalWorkflow(
  deps: Pick<Deps, 'temporal'>,
  workflowId: string,
  signal: SignalDefinition<[]>,
): Promise<SignalOutcome> {
  try {
    await deps.temporal.workflow.getHandle(workflowId).signal(signal);
    return { outcome: 'signalled' };
  } catch (err) {
    return err instanceof WorkflowNotFoundError ? { outcome: 'finished' } : { outcome: 'failed', err };
  }
}

/** Signals the transaction's workflow; an unknown transaction and an undelivered signal are warned about, not thrown. */
export async function signalTransactionWorkflow(
  deps: Pick<Deps, 'sql' | 'temporal' | 'log'>,
  transactionId: string,
  to: TransactionSignal,
): Promise<void> {
  const [workflowId] = await addressTransactions(deps.sql, [{ transactionId, to }]);
  if (!workflowId) {
    deps.log.warn({ transactionId }, to.unknown);
    return;
  }
  const sent = await signalWorkflow(deps, workflowId, to.signal);
  if (sent.outcome === 'failed') deps.log.warn({ err: sent.err, transactionId }, to.undelivered);
}
