// The admin API's side of the MED workflow: open a MED (update-with-start of `med:<id>`, waiting for
// the `opened` update) and hand a decision to the running workflow. Both wait at most ACCEPT_WAIT_MS:
// past that (no worker answering) the answer is the MED as known, marked pending (202), as the public
// API does; a repeat (same Idempotency-Key, or the same decision) joins the same workflow. A change the
// workflow answers is read back from the read model: the admin API serializes the MED.
import { randomBytes } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import {
  decideUpdate,
  MED_WORKFLOW,
  medWorkflowId,
  openedUpdate,
  type MedChangeResult,
  type MedOutcome,
  type MedRefusal,
  type MedWorkflow,
} from './contract.js';
import { TIMED_OUT, within } from '../async/within.js';
import { ensureStarted } from '../temporal/accept-with-start.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import type { Deps } from '../runtime/deps.js';
import { peekReturnBudget, type ReturnBudget } from '../returns/budget.js';
import { bindOpenRequest } from './open-requests.js';
import { findMedById } from './repository.js';
import { medNotFound, medRefused } from './results.js';
import type { MedRow } from './row.js';

export interface MedNotification {
  transactionId: string;
  amountCents: number | null;
  reason: string;
}

/** The MED as the read model holds it, or the refusal. */
export type MedResult = { ok: true; med: MedRow } | MedRefusal;

export interface MedAnswer {
  result: MedResult;
  /** The workflow did not answer within ACCEPT_WAIT_MS: `result` is the MED as known so far. */
  pending: boolean;
  /** An earlier request under the same Idempotency-Key opened it. */
  repeated: boolean;
}

const answered = (result: MedResult, repeated = false): MedAnswer => ({ result, pending: false, repeated });
const known = (med: MedRow): MedResult => ({ ok: true, med });

/** The MED the workflow opened or decided, read back; or its refusal. */
async function readBack(deps: Deps, medId: string, change: MedChangeResult): Promise<MedResult> {
  if (!change.ok) return change;
  const med = await findMedById(deps.sql, medId);
  if (!med) throw new Error(`MED ${medId} changed by its workflow but not found`);
  return known(med);
}

/** The MED as it will be opened, before its workflow recorded it (nothing retained yet). */
function toBeOpened(medId: string, charge: ReturnBudget, notification: MedNotification, deadlineSeconds: number): MedRow {
  const now = new Date();
  return {
    id: medId,
    accountId: charge.accountId,
    transactionId: notification.transactionId,
    externalId: charge.externalId,
    status: 'open',
    reason: notification.reason,
    amountCents: notification.amountCents ?? charge.leftCents,
    retainedAmountCents: 0,
    returnedAmountCents: 0,
    deadlineAt: new Date(now.getTime() + deadlineSeconds * 1000),
    overdue: false,
    decidedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function openMedThroughWorkflow(deps: Deps, notification: MedNotification, idempotencyKey: string | null): Promise<MedAnswer> {
  const charge = await peekReturnBudget(deps.sql, notification.transactionId);
  if (!charge) return answered(medNotFound('Transação não encontrada'));
  let medId = `med_${randomBytes(12).toString('hex')}`;
  let repeated = false;
  if (idempotencyKey !== null) {
    const bound = await bindOpenRequest(deps.sql, idempotencyKey, notification, medId);
    medId = bound.medId;
    repeated = bound.outcome === 'repeat';
    const recorded = repeated ? await findMedById(deps.sql, medId) : null;
    if (recorded) return answered(known(recorded), true);
  }
  const workflowId = medWorkflowId(medId);
  const deadlineSeconds = deps.config.medDecisionDeadlineSeconds;
  const opened = deps.temporal.workflow
    .executeUpdateWithStart(openedUpdate, {
      startWorkflowOperation: new WithStartWorkflowOperation<MedWorkflow>(MED_WORKFLOW, {
        workflowId,
        taskQueue: deps.config.temporalTaskQueue,
        // A repeat joins the workflow of its first request; one already finished (a refused MED) is not run again.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
        args: [{ open: { medId, ...notification, deadlineSeconds } }],
        typedSearchAttributes: [
          { key: ACCOUNT_ID_ATTRIBUTE, value: charge.accountId },
          { key: TRANSACTION_ID_ATTRIBUTE, value: notification.transactionId },
        ],
      }),
    })
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return deps.temporal.workflow.getHandle<MedWorkflow>(workflowId).result();
    })
    .then((change) => readBack(deps, medId, change));
  const result = await within(opened, deps.config.acceptWaitMs);
  if (result !== TIMED_OUT) return answered(result, repeated);
  await ensureStarted(deps, workflowId);
  const recorded = await findMedById(deps.sql, medId);
  return { result: known(recorded ?? toBeOpened(medId, charge, notification, deadlineSeconds)), pending: true, repeated };
}

/** The answer a MED that is no longer open gives: itself for the same decision, a refusal for the other. */
async function decidedAnswer(deps: Deps, medId: string, outcome: MedOutcome): Promise<MedResult | null> {
  const med = await findMedById(deps.sql, medId);
  if (!med) return medNotFound();
  if (med.status === 'open') return null;
  return med.status === outcome ? known(med) : medRefused(`A MED já foi decidida (${med.status})`);
}

export async function decideMedThroughWorkflow(deps: Deps, medId: string, outcome: MedOutcome): Promise<MedAnswer> {
  const settled = await decidedAnswer(deps, medId, outcome);
  if (settled) return answered(settled);
  const decided = deps.temporal.workflow
    .getHandle(medWorkflowId(medId))
    // One update per decision: a repeat while the first still waits for a worker joins it.
    .executeUpdate(decideUpdate, { args: [outcome], updateId: `decide:${outcome}` })
    .then(
      (change) => readBack(deps, medId, change),
      async (err: unknown) => {
        // The workflow finished between our read and the update: the record tells what was decided.
        const answer = await decidedAnswer(deps, medId, outcome);
        if (answer) return answer;
        throw err;
      },
    );
  const result = await within(decided, deps.config.acceptWaitMs);
  if (result !== TIMED_OUT) return answered(result);
  await ensureStarted(deps, medWorkflowId(medId));
  return { result: known((await findMedById(deps.sql, medId))!), pending: true, repeated: false };
}
