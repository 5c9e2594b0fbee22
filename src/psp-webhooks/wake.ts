// The engine's answer to each name of a PSP webhook hint, when the hint processor acts on it. A charge
// or transfer of the engine has its workflow signalled (it asks the route before anything changes);
// the endToEndId of the Pix that paid an approved charge of the route starts the check of its MED
// devoluções, under an id derived from the route and the Pix, so that duplicates join one run. Two
// queries for any number of names, and all the Temporal calls of one batch under one deadline, so that
// an unreachable Temporal holds the processor (and the rows it locked) only that long.
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { Sql, TxSql } from '../db/database.js';
import type { Deps } from '../runtime/deps.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { chargeWorkflowId, paymentNotifiedSignal } from '../../contracts/charge.contract.js';
import { MED_RETURNS_WORKFLOW, medReturnsWorkflowId, type MedReturnsWorkflow } from '../../contracts/med-returns.contract.js';
import { networkAnsweredSignal, transferWorkflowId } from '../../contracts/transfer.contract.js';
import type { HintKind } from './hints.js';

const TEMPORAL_DEADLINE_MS = 5000;

export interface HintName {
  route: string;
  kind: HintKind;
  name: string;
}

/**
 * signalled: the workflow got the signal; medCheck: the Pix's MED check started (or was under way);
 * unknown: the engine has no such charge or transfer; finished: its workflow had ended (the transaction
 * is settled); nothing: a Pix that paid no approved charge of the route; failed: Temporal refused or did
 * not answer in time (to retry).
 */
export type WakeOutcome = { outcome: 'signalled' | 'medCheck' | 'unknown' | 'finished' | 'nothing' } | { outcome: 'failed'; err: unknown };

interface Addressee {
  type: 'payment' | 'withdrawal';
  signal: SignalDefinition<[]>;
  workflowId(accountId: string, key: string): string;
}

const ADDRESSEES: Record<'charge' | 'transfer', Addressee> = {
  charge: { type: 'payment', signal: paymentNotifiedSignal, workflowId: chargeWorkflowId },
  transfer: { type: 'withdrawal', signal: networkAnsweredSignal, workflowId: transferWorkflowId },
};

interface TransactionRow {
  id: string;
  type: string;
  account_id: string;
  external_id: string;
}

/** Wakes what each name points at; answers the outcome of each, in the order of `names`. */
export async function wake(deps: Deps, sql: Sql | TxSql, names: HintName[]): Promise<WakeOutcome[]> {
  const [transactions, paidPix] = await Promise.all([transactionsNamed(sql, names), paidPixNamed(sql, names)]);
  return deps.temporal.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
    Promise.all(
      names.map((named) => {
        if (named.kind === 'pix')
          return paidPix.has(pixKey(named.route, named.name))
            ? startMedReturns(deps, named.route, named.name)
            : { outcome: 'nothing' as const };
        const addressee = ADDRESSEES[named.kind];
        const row = transactions.get(named.name);
        return row?.type === addressee.type ? signal(deps, addressee, row) : { outcome: 'unknown' as const };
      }),
    ),
  );
}

const pixKey = (route: string, endToEndId: string) => `${route} ${endToEndId}`;

async function transactionsNamed(sql: Sql | TxSql, names: HintName[]): Promise<Map<string, TransactionRow>> {
  const ids = names.filter((named) => named.kind !== 'pix').map((named) => named.name);
  if (ids.length === 0) return new Map();
  const rows = await sql<TransactionRow[]>`select id, type, account_id, external_id from transactions where id = any(${ids}::text[])`;
  return new Map(rows.map((row) => [row.id, row]));
}

/** The received Pix named that paid an approved charge of the route named with them. */
async function paidPixNamed(sql: Sql | TxSql, names: HintName[]): Promise<Set<string>> {
  const endToEndIds = names.filter((named) => named.kind === 'pix').map((named) => named.name);
  if (endToEndIds.length === 0) return new Set();
  const rows = await sql<{ end_to_end_id: string; route: string }[]>`
    select end_to_end_id, acquirer as route from transactions
    where end_to_end_id = any(${endToEndIds}::text[]) and type = 'payment' and status in ('approved', 'refunded')`;
  return new Set(rows.map((row) => pixKey(row.route, row.end_to_end_id)));
}

async function signal(deps: Deps, addressee: Addressee, row: TransactionRow): Promise<WakeOutcome> {
  try {
    await deps.temporal.workflow.getHandle(addressee.workflowId(row.account_id, row.external_id)).signal(addressee.signal);
    return { outcome: 'signalled' };
  } catch (err) {
    return err instanceof WorkflowNotFoundError ? { outcome: 'finished' } : { outcome: 'failed', err };
  }
}

async function startMedReturns(deps: Deps, route: string, endToEndId: string): Promise<WakeOutcome> {
  try {
    await deps.temporal.workflow.start<MedReturnsWorkflow>(MED_RETURNS_WORKFLOW, {
      workflowId: medReturnsWorkflowId(route, endToEndId),
      taskQueue: deps.config.temporalTaskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
      args: [{ route, endToEndId }],
    });
    return { outcome: 'medCheck' };
  } catch (err) {
    return err instanceof WorkflowExecutionAlreadyStartedError ? { outcome: 'medCheck' } : { outcome: 'failed', err };
  }
}
