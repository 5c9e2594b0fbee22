// The engine's answer to each name of a PSP webhook hint, when the hint processor acts on it. A charge
// or transfer of the engine has its workflow signalled (it asks the route before anything changes);
// the endToEndId of the Pix that paid an approved charge of the route starts the check of its MED
// devoluções, under an id derived from the route and the Pix, so that duplicates join one run, and
// signals the charge's pending refunds (the standard's webhook lists a Pix's devoluções inside its
// entry). Signals go the one way of src/transactions/notify.ts. Three queries for any number of names,
// and all the Temporal calls of one batch under one deadline, so that an unreachable Temporal holds the
// processor (and the rows it locked) only that long.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Sql, TxSql } from '../db/database.js';
import type { Deps } from '../runtime/deps.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { addressTransactions, signalWorkflow, type SignalOutcome, type TransactionAddressee } from '../transactions/notify.js';
import { chargeWorkflowId, paymentNotifiedSignal } from '../charges/contract.js';
import { MED_RETURNS_WORKFLOW, medReturnsWorkflowId, type MedReturnsWorkflow } from '../meds/returns.contract.js';
import { refundWorkflowId } from '../refunds/contract.js';
import { networkAnsweredSignal, transferWorkflowId } from '../transfers/contract.js';
import type { HintKind } from './hints.js';
import { recurrenceNotifiedSignal, recurrenceWorkflowId } from '../recurrences/contract.js';

const TEMPORAL_DEADLINE_MS = 5000;

export interface HintName {
  route: string;
  kind: HintKind;
  name: string;
}

/**
 * signalled: the workflow got the signal; medCheck: the Pix's MED check started (or was under way), and
 * `refunds` of the charge's pending refunds were signalled; unknown: the engine has no such charge or
 * transfer; finished: its workflow had ended (the transaction is settled); nothing: a Pix that paid no
 * approved charge of the route; failed: Temporal refused or did not answer in time (to retry).
 */
export type WakeOutcome = SignalOutcome | { outcome: 'unknown' | 'nothing' } | { outcome: 'medCheck'; refunds: number };

const ADDRESSEES: Record<'charge' | 'transfer', TransactionAddressee> = {
  charge: { type: 'payment', signal: paymentNotifiedSignal, workflowId: chargeWorkflowId },
  transfer: { type: 'withdrawal', signal: networkAnsweredSignal, workflowId: transferWorkflowId },
};

/** Wakes what each name points at; answers the outcome of each, in the order of `names`. */
export async function wake(deps: Deps, sql: Sql | TxSql, names: HintName[]): Promise<WakeOutcome[]> {
  const [transactions, pix, recurrences] = await Promise.all([
    transactionsNamed(sql, names),
    pixNamed(sql, names),
    recurrencesNamed(sql, names),
  ]);
  return deps.temporal.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () =>
    Promise.all(
      names.map((named) => {
        if (named.kind === 'pix') {
          const refunds = pix.get(pixKey(named.route, named.name));
          return refunds ? wakePaidPix(deps, named, refunds) : { outcome: 'nothing' as const };
        }
        if (named.kind === 'recurrence') {
          const workflowId = recurrences.get(pixKey(named.route, named.name));
          return workflowId ? signalWorkflow(deps, workflowId, recurrenceNotifiedSignal) : { outcome: 'unknown' as const };
        }
        const workflowId = transactions.get(named);
        return workflowId ? signalWorkflow(deps, workflowId, ADDRESSEES[named.kind].signal) : { outcome: 'unknown' as const };
      }),
    ),
  );
}

/** The MED check of the Pix that paid a charge, and a signal to each of the charge's pending refunds (`refunds`: their workflow ids). */
async function wakePaidPix(deps: Deps, named: HintName, refunds: string[]): Promise<WakeOutcome> {
  const outcomes = await Promise.all([
    startMedReturns(deps, named.route, named.name),
    ...refunds.map((workflowId) => signalWorkflow(deps, workflowId, networkAnsweredSignal)),
  ]);
  const failed = outcomes.find((result) => result.outcome === 'failed');
  return failed ?? { outcome: 'medCheck', refunds: outcomes.filter((result) => result.outcome === 'signalled').length };
}

const pixKey = (route: string, endToEndId: string) => `${route} ${endToEndId}`;

/** The workflow id each charge or transfer named is signalled at (absent: no such transaction of that kind). */
async function transactionsNamed(sql: Sql | TxSql, names: HintName[]): Promise<Map<HintName, string>> {
  const named = names.filter(
    (hint): hint is HintName & { kind: 'charge' | 'transfer' } => hint.kind === 'charge' || hint.kind === 'transfer',
  );
  const workflowIds = await addressTransactions(
    sql,
    named.map((hint) => ({ transactionId: hint.name, to: ADDRESSEES[hint.kind] })),
  );
  return new Map(named.flatMap((hint, i) => (workflowIds[i] ? [[hint, workflowIds[i]] as const] : [])));
}

/**
 * The received Pix named that paid an approved charge of the route named with them, each with the
 * workflow ids of the charge's pending refunds (a refund's account is its charge's).
 */
async function pixNamed(sql: Sql | TxSql, names: HintName[]): Promise<Map<string, string[]>> {
  const endToEndIds = names.filter((named) => named.kind === 'pix').map((named) => named.name);
  if (endToEndIds.length === 0) return new Map();
  const rows = await sql<{ end_to_end_id: string; route: string; account_id: string; refund_keys: string[] }[]>`
    select t.end_to_end_id, t.acquirer as route, t.account_id,
           array(select r.idempotency_key from refunds r
                  where r.transaction_id = t.id and r.route = t.acquirer and r.status = 'pending' order by r.created_at) as refund_keys
      from transactions t
     where t.end_to_end_id = any(${endToEndIds}::text[]) and t.type = 'payment' and t.status in ('approved', 'refunded')`;
  return new Map(
    rows.map((row) => [pixKey(row.route, row.end_to_end_id), row.refund_keys.map((key) => refundWorkflowId(row.account_id, key))]),
  );
}

/** The workflow ids of the recurrences named by the route's id (idRec), by route and id. */
async function recurrencesNamed(sql: Sql | TxSql, names: HintName[]): Promise<Map<string, string>> {
  const named = names.filter((hint) => hint.kind === 'recurrence');
  if (named.length === 0) return new Map();
  const rows = await sql<{ route: string; route_ref: string; account_id: string; external_id: string }[]>`
    select route, route_ref, account_id, external_id from recurrences where route_ref = any(${named.map((hint) => hint.name)}::text[])`;
  return new Map(rows.map((row) => [pixKey(row.route, row.route_ref), recurrenceWorkflowId(row.account_id, row.external_id)]));
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
    return { outcome: 'medCheck', refunds: 0 };
  } catch (err) {
    return err instanceof WorkflowExecutionAlreadyStartedError ? { outcome: 'medCheck', refunds: 0 } : { outcome: 'failed', err };
  }
}
