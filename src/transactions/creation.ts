// What charge and transfer creations share after their own validation: the answer of the accept
// step (created, repeated, an idempotency conflict, the refusal it recorded), the answer given when
// the accept step did not answer in time (still accepting), and whether a key is already bound to an
// operation. A creation answers the transaction as the read model holds it: the edge serializes it.
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Caller } from '../accounts/account.js';
import { idempotencyConflict } from './idempotency.js';
import type { Deps } from '../runtime/deps.js';
import { Refusal } from '../domain/refusal.js';
import type { AcceptOutcome } from '../../contracts/transaction.contract.js';
import { recordedRefusal } from './acceptance.js';
import { findTransaction } from './repository.js';
import type { TransactionRow } from './row.js';

/** Who asked, under which key, through which route: what every draft starts with. */
export function draftIdentity(caller: Caller, key: string, fingerprint: string, transactionId: string) {
  return { transactionId, accountId: caller.account.id, apiKeyId: caller.keyId, externalId: key, fingerprint, route: caller.account.route };
}

/** What a creation request learns: the operation created now, a repeat of the key's, or one still being accepted. */
export interface CreationAnswer {
  outcome: 'created' | 'repeated' | 'accepting';
  transaction: TransactionRow;
}

/** The accept update's answer: the transaction it names, read now; a conflict or a refusal is thrown. */
export async function creationAnswer(deps: Deps, accountId: string, result: AcceptOutcome): Promise<CreationAnswer> {
  if (result.outcome === 'conflict') throw idempotencyConflict();
  if (result.outcome === 'refused') throw recordedRefusal(result.refusal);
  const row = await findTransaction(deps.sql, accountId, result.transaction.id);
  if (!row) throw new Error(`transaction ${result.transaction.id} accepted but not found`);
  return { outcome: result.outcome, transaction: row };
}

/** The terms the account's rules give now, for a 202's preview; `unpriced` when they refuse (the accept step decides). */
export async function previewOf<T>(terms: Promise<T>, unpriced: () => T): Promise<T> {
  try {
    return await terms;
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return unpriced();
  }
}

/**
 * What a request that could not wait for the accept step learns: the transaction as known now, still being
 * accepted; `preview` when it is not persisted yet.
 */
export async function stillAccepting(
  deps: Deps,
  accountId: string,
  key: string,
  fingerprint: string,
  preview: () => TransactionRow | Promise<TransactionRow>,
): Promise<CreationAnswer> {
  const row = await findTransaction(deps.sql, accountId, key);
  if (row && row.externalId === key && row.fingerprint !== fingerprint) throw idempotencyConflict();
  return { outcome: 'accepting', transaction: row && row.externalId === key ? row : await preview() };
}

/** A key is bound while an operation of the account holds it: a persisted transaction, or a workflow still deciding. */
export async function isKeyBound(deps: Deps, accountId: string, key: string, workflowId: string): Promise<boolean> {
  const row = await findTransaction(deps.sql, accountId, key);
  if (row && row.externalId === key) return true;
  try {
    const { status } = await deps.temporal.workflow.getHandle(workflowId).describe();
    return status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
