// POST /admin/transactions/{id}/refunds behind the route: bind the idempotency key, then start (or
// join) the refund's workflow with update-with-start and wait a bounded time for its accept step,
// which judges the charge, inserts the row and reserves the amount in one PostgreSQL transaction, and
// answers for every request of the key.
import { createHash } from 'node:crypto';
import { TIMED_OUT } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';
import { Refusal } from '../domain/refusal.js';
import { peekReturnBudget } from '../returns/budget.js';
import { recordedRefusal } from '../transactions/acceptance.js';
import { compareWithExisting, fingerprintOf, idempotencyConflict, resolveIdempotencyKey } from '../transactions/idempotency.js';
import type { RefundDraft } from './contract.js';
import { findRefund, findRefundByKey } from './repository.js';
import type { RefundRow } from './row.js';
import { startRefund } from './workflow-client.js';

export function refundIdOf(accountId: string, key: string): string {
  return `rfd_${createHash('sha256').update(`refund\n${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

/** The refund's idempotency key: the header, required, with the spec's key rules. */
export function refundKey(header: string | undefined): string {
  if (header === undefined || header === '') throw new Refusal('idempotency_key_required', 'Envie o cabeçalho Idempotency-Key');
  return resolveIdempotencyKey(header, undefined);
}

export interface RefundAsked {
  amountCents: number | null;
  reason: string | null;
}

export interface RefundAnswer {
  outcome: 'created' | 'repeated' | 'accepting';
  refund: RefundRow;
}

/** What is left of the charge's return budget now, without a lock: what a 202 shows when no amount was asked. */
async function previewAmount(deps: Deps, transactionId: string): Promise<number> {
  return (await peekReturnBudget(deps.sql, transactionId))?.leftCents ?? 0;
}

function preview(draft: RefundDraft, route: string, amountCents: number): RefundRow {
  const now = new Date();
  return {
    id: draft.refundId,
    accountId: draft.accountId,
    transactionId: draft.transactionId,
    idempotencyKey: draft.externalId,
    fingerprint: draft.fingerprint,
    route,
    amountCents,
    reason: draft.reason,
    status: 'pending',
    failureReason: null,
    endToEndId: null,
    createdAt: now,
    updatedAt: now,
    settledAt: null,
  };
}

export async function createRefund(
  deps: Deps,
  charge: { id: string; accountId: string; route: string },
  asked: RefundAsked,
  key: string,
  requestId: string,
): Promise<RefundAnswer> {
  const fingerprint = fingerprintOf('refund', { transactionId: charge.id, amount: asked.amountCents, reason: asked.reason });
  const existing = await findRefundByKey(deps.sql, charge.accountId, key);
  if (existing && compareWithExisting(existing.fingerprint, fingerprint) === 'repeat') return { outcome: 'repeated', refund: existing };

  const draft: RefundDraft = {
    refundId: refundIdOf(charge.accountId, key),
    transactionId: charge.id,
    accountId: charge.accountId,
    externalId: key,
    fingerprint,
    amountCents: asked.amountCents,
    reason: asked.reason,
  };
  const result = await startRefund(deps, { requestId, draft });
  if (result === TIMED_OUT) {
    const row = await findRefundByKey(deps.sql, charge.accountId, key);
    if (row && row.fingerprint !== fingerprint) throw idempotencyConflict();
    return {
      outcome: 'accepting',
      refund: row ?? preview(draft, charge.route, asked.amountCents ?? (await previewAmount(deps, charge.id))),
    };
  }
  if (result.outcome === 'conflict') throw idempotencyConflict();
  if (result.outcome === 'refused') throw recordedRefusal(result.refusal);
  const refund = await findRefund(deps.sql, result.transaction.id);
  if (!refund) throw new Error(`refund ${result.transaction.id} accepted but not found`);
  return { outcome: result.outcome, refund };
}
