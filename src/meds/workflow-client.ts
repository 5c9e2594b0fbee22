// The admin API's side of the MED workflow: open a MED (update-with-start of `med:<id>`, waiting for
// the `opened` update) and hand a decision to the running workflow.
import { randomBytes } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { decideUpdate, medWorkflow, openedUpdate } from '../../workflows/med.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import type { Deps } from '../deps.js';
import { findMedById } from './repository.js';
import { medNotFound, medRefused, type MedChangeResult } from './results.js';
import type { MedOutcome } from './row.js';
import { serializeMed } from './serialize.js';

export const medWorkflowId = (medId: string) => `med:${medId}`;

export interface MedNotification {
  transactionId: string;
  amountCents: number | null;
  reason: string;
}

export async function openMedThroughWorkflow(deps: Deps, notification: MedNotification): Promise<MedChangeResult> {
  const [charge] = await deps.sql<{ accountId: string }[]>`select account_id as "accountId" from transactions where id = ${notification.transactionId}`;
  if (!charge) return medNotFound('Transação não encontrada');
  const medId = `med_${randomBytes(12).toString('hex')}`;
  return deps.temporal.workflow.executeUpdateWithStart(openedUpdate, {
    startWorkflowOperation: new WithStartWorkflowOperation(medWorkflow, {
      workflowId: medWorkflowId(medId),
      taskQueue: deps.config.temporalTaskQueue,
      workflowIdConflictPolicy: 'FAIL',
      args: [{ open: { medId, ...notification, deadlineSeconds: deps.config.medDecisionDeadlineSeconds } }],
      typedSearchAttributes: [
        { key: ACCOUNT_ID_ATTRIBUTE, value: charge.accountId },
        { key: TRANSACTION_ID_ATTRIBUTE, value: notification.transactionId },
      ],
    }),
  });
}

/** The answer a MED that is no longer open gives: itself for the same decision, a refusal for the other. */
async function decidedAnswer(deps: Deps, medId: string, outcome: MedOutcome): Promise<MedChangeResult | null> {
  const med = await findMedById(deps.sql, medId);
  if (!med) return medNotFound();
  if (med.status === 'open') return null;
  return med.status === outcome ? { ok: true, med: serializeMed(med), eventIds: [] } : medRefused(`A MED já foi decidida (${med.status})`);
}

export async function decideMedThroughWorkflow(deps: Deps, medId: string, outcome: MedOutcome): Promise<MedChangeResult> {
  const settled = await decidedAnswer(deps, medId, outcome);
  if (settled) return settled;
  try {
    return await deps.temporal.workflow.getHandle(medWorkflowId(medId)).executeUpdate(decideUpdate, { args: [outcome] });
  } catch (err) {
    // The workflow finished between our read and the update: the record tells what was decided.
    const answer = await decidedAnswer(deps, medId, outcome);
    if (answer) return answer;
    throw err;
  }
}
