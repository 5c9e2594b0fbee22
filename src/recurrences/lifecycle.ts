// The steps of a recurrence's life that touch PostgreSQL (the recurrence workflow's activities), each
// idempotent: a status change with its recurrence.updated event in one PostgreSQL transaction, then
// the event's dispatch; the cancellation of the cycles not yet due, and its confirmation for a cycle
// charge's workflow told of it; whether every cycle settled.
import type { Deps } from '../runtime/deps.js';
import type { Sql, TxSql } from '../db/database.js';
import { dispatchEvent } from '../webhooks/dispatch.js';
import { saoPauloDate } from '../../contracts/calendar.js';
import { WorkflowNotFoundError } from '@temporalio/client';
import { chargeWorkflowId, cycleCancelledSignal } from '../charges/contract.js';
import type { RecurrenceStatus, RecurrenceTransition } from './contract.js';
import { toRecurrenceRow, type RawRecurrenceRow } from './row.js';
import { recordRecurrenceEvent } from './events.js';
import { loadRecurrence } from './repository.js';

/** The status each transition leads to, and the statuses it leaves. */
const TRANSITIONS: Record<RecurrenceTransition['change'], { to: RecurrenceStatus; from: RecurrenceStatus[] }> = {
  authorize: { to: 'active', from: ['pending_authorization'] },
  reject: { to: 'rejected', from: ['pending_authorization'] },
  expire: { to: 'expired', from: ['pending_authorization'] },
  cancel: { to: 'cancelled', from: ['pending_authorization', 'active'] },
  complete: { to: 'completed', from: ['active'] },
};

function changedColumns(tx: TxSql, transition: RecurrenceTransition) {
  if (transition.change === 'authorize')
    return tx`, authorized_at = now(), payer_maximum_amount = ${transition.maximumAmountCents ?? null}`;
  if (transition.change === 'cancel') return tx`, cancelled_by = ${transition.by}`;
  return tx``;
}

/** Persists the transition and its event, then dispatches the event; answers the status after it (a repeat changes nothing). */
export async function transitionRecurrence(deps: Deps, recurrenceId: string, transition: RecurrenceTransition): Promise<RecurrenceStatus> {
  const { to, from } = TRANSITIONS[transition.change];
  const eventId = await deps.sql.begin(async (tx) => {
    const [raw] = await tx<RawRecurrenceRow[]>`
      update recurrences set status = ${to}, updated_at = now() ${changedColumns(tx, transition)}
      where id = ${recurrenceId} and status in ${tx(from)}
      returning *`;
    return raw ? recordRecurrenceEvent(tx, toRecurrenceRow(raw)) : null;
  });
  if (eventId !== null) await dispatchEvent(deps, eventId, { firstAttemptNow: true });
  return (await loadRecurrence(deps.sql, recurrenceId)).status;
}

/** A recurrence's cancellation withdraws its cycle charges still pending and not yet due (due tomorrow or later in São Paulo). */
const notYetDue = (sql: Sql) => sql`status = 'pending' and due_date > ${saoPauloDate(new Date())}`;

/** The recurrence's cycle charges its cancellation withdraws (notYetDue). */
export function cyclesNotYetDue(sql: Sql, recurrenceId: string) {
  return sql<{ id: string; account_id: string; external_id: string }[]>`
    select id, account_id, external_id from transactions where recurrence_id = ${recurrenceId} and ${notYetDue(sql)}`;
}

/**
 * Cancels the recurrence's cycle charges not yet due: each one's workflow is told, confirms it
 * (cycleCancelledByRecurrence), and cancels it at the route unless the payer's bank already debited it.
 */
export async function cancelCycleCharges(deps: Deps, recurrenceId: string): Promise<number> {
  const pending = await cyclesNotYetDue(deps.sql, recurrenceId);
  for (const charge of pending) {
    try {
      await deps.temporal.workflow.getHandle(chargeWorkflowId(charge.account_id, charge.external_id)).signal(cycleCancelledSignal);
    } catch (err) {
      // A charge whose workflow already ended settled meanwhile; any other failure retries the activity.
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  return pending.length;
}

/** True when the charge is a cycle its recurrence's cancellation withdraws: the recurrence is cancelled, the cycle not yet due. */
export async function cycleCancelledByRecurrence(deps: Pick<Deps, 'sql'>, transactionId: string): Promise<boolean> {
  const [row] = await deps.sql<{ withdrawn: boolean }[]>`
    select exists (
      select 1 from transactions
      where id = ${transactionId} and ${notYetDue(deps.sql)}
        and recurrence_id in (select id from recurrences where status = 'cancelled')) as withdrawn`;
  return row!.withdrawn;
}

/** True once no cycle charge of the recurrence is pending. */
export async function cyclesSettled(deps: Deps, recurrenceId: string): Promise<boolean> {
  const [row] = await deps.sql<{ pending: boolean }[]>`
    select exists (select 1 from transactions where recurrence_id = ${recurrenceId} and status = 'pending') as pending`;
  return !row!.pending;
}
