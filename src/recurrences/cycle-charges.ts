// A recurrence's cycle charges are charges: created through the charge's own path (its workflow,
// accept step, ledger, events and read model) with the cycle's terms: a due date, no fine, interest or
// discount, payable until the last retry day (`three_in_seven_days`) or the due date, and the
// recurrence's payer, description and webhookUrl. The engine creates a fixed amount's cycles;
// POST /v1/recurrences/{id}/charges creates a variable amount's.
import type { Caller } from '../accounts/account.js';
import { getAccount } from '../accounts/repository.js';
import type { Deps } from '../runtime/deps.js';
import { Refusal } from '../domain/refusal.js';
import { createCheckedCharge } from '../charges/create.js';
import type { ChargeRequest } from '../charges/schema.js';
import type { CreationAnswer } from '../transactions/creation.js';
import type { DueDateBilling } from '../charges/contract.js';
import { RETRY_DAYS, type RetryPolicy } from './contract.js';
import type { RecurrenceRow } from './row.js';
import { cycleChargeKey } from './ids.js';
import { loadRecurrence } from './repository.js';

/** A cycle's billing: its amount, whatever the day; payable until its last retry day. */
export function cycleBilling(retryPolicy: RetryPolicy): DueDateBilling {
  return {
    validityAfterDue: retryPolicy === 'three_in_seven_days' ? Math.max(...RETRY_DAYS) : 0,
    fine: null,
    interest: null,
    discounts: [],
    abatement: null,
  };
}

export interface CycleCharge {
  dueDate: string;
  amountCents: number;
  description?: string;
}

/** The charge request of one cycle of `recurrence`. */
export function cycleChargeRequest(recurrence: RecurrenceRow, cycle: CycleCharge): ChargeRequest {
  return {
    amountCents: cycle.amountCents,
    payer: recurrence.payer,
    description: cycle.description ?? recurrence.description,
    coverFee: false,
    split: [],
    metadata: {},
    webhookUrl: recurrence.webhookUrl,
    due: { dueDate: cycle.dueDate, billing: cycleBilling(recurrence.retryPolicy) },
    cycle: { recurrenceId: recurrence.id, retryPolicy: recurrence.retryPolicy },
  };
}

/** The charge of a cycle under `key`, as the caller (or the engine, for a fixed amount) asks for it. */
export function createCycleChargeFor(
  deps: Deps,
  caller: Caller,
  recurrence: RecurrenceRow,
  cycle: CycleCharge,
  key: string,
  requestId: string,
): Promise<CreationAnswer> {
  return createCheckedCharge(deps, caller, cycleChargeRequest(recurrence, cycle), key, requestId);
}

/** The engine's own charge of a fixed-amount recurrence's cycle (the recurrence workflow's activity); idempotent by its key. */
export async function createEngineCycleCharge(deps: Deps, input: { recurrenceId: string; dueDate: string }): Promise<void> {
  const recurrence = await loadRecurrence(deps.sql, input.recurrenceId);
  const account = await getAccount(deps.sql, recurrence.accountId);
  if (!account) throw new Error(`recurrence ${recurrence.id}: account ${recurrence.accountId} not found`);
  const caller: Caller = { account, keyId: recurrence.apiKeyId ?? '', keyHash: '', permissions: [] };
  const key = cycleChargeKey(recurrence.id, input.dueDate);
  try {
    await createCycleChargeFor(
      deps,
      caller,
      recurrence,
      { dueDate: input.dueDate, amountCents: recurrence.amountCents! },
      key,
      `${key}:engine`,
    );
  } catch (err) {
    // The account's rules refused this cycle (blocked, limits changed): nothing was kept; the next cycle tries again.
    if (!(err instanceof Refusal)) throw err;
    deps.log.warn({ recurrenceId: recurrence.id, dueDate: input.dueDate, code: err.code }, 'alert: a recurrence cycle charge was refused');
  }
}
