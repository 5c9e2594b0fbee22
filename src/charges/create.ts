// POST /transactions behind the route: validate, bind the idempotency key, then start (or join) the
// charge's workflow with update-with-start and wait a bounded time for its accept step, which
// applies the account's rules and answers for every request of the key.
import type { Caller } from '../accounts/account.js';
import type { Deps } from '../runtime/deps.js';
import { invalidRequest } from '../domain/refusal.js';
import { creationAnswer, draftIdentity, previewOf, stillAccepting, type CreationAnswer } from '../transactions/creation.js';
import { findTransaction } from '../transactions/repository.js';
import { pendingTransaction } from '../transactions/pending.js';
import type { TransactionRow } from '../transactions/row.js';
import { compareWithExisting, fingerprintOf, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { chargeTransactionId } from '../transactions/ids.js';
import { TIMED_OUT } from '../async/within.js';
import type { ChargeAsked, ChargeDraft } from '../../contracts/charge.contract.js';
import { chargeComparedFields, parseChargeBody, type ChargeRequest } from './schema.js';
import { chargeTerms } from './terms.js';
import { joinCharge, startCharge } from './workflow-client.js';
import { checkReceiverUrl } from '../webhooks/ssrf.js';
import { dueDateExpiresAt } from '../domain/due-date-validity.js';
import { checkDueDateAhead } from './due-date/body.js';

async function draftCharge(deps: Deps, caller: Caller, request: ChargeRequest, key: string, fingerprint: string): Promise<ChargeDraft> {
  const { account } = caller;
  const asked: ChargeAsked = {
    amountCents: request.amountCents,
    coverFee: request.coverFee,
    split: request.split,
    ...(request.due ? { due: request.due } : {}),
    ...(request.cycle ? { cycle: request.cycle } : {}),
  };
  return {
    ...draftIdentity(caller, key, fingerprint, chargeTransactionId(account.id, key)),
    merchantName: account.name,
    ...(await previewOf(chargeTerms(deps.sql, account, asked), () => ({
      amountCents: asked.amountCents,
      feeCents: 0,
      splitAmountCents: 0,
      netAmountCents: asked.amountCents,
      split: [],
    }))),
    description: request.description,
    ...(Object.keys(request.metadata).length ? { metadata: request.metadata } : {}),
    payer: request.payer,
    webhookUrl: request.webhookUrl,
    asked,
  };
}

/** The charge as known before the workflow persisted it: what a 202 shows. */
function chargePreview(draft: ChargeDraft, ttlSeconds: number): TransactionRow {
  const due = draft.asked?.due;
  return pendingTransaction(draft, ttlSeconds, {
    direction: 'in',
    type: 'payment',
    method: 'pix',
    debitedAmountCents: null,
    recipientAmountCents: null,
    splitAmountCents: draft.splitAmountCents,
    split: draft.split,
    payer: { ...draft.payer, email: draft.payer.email ?? null },
    counterparty: null,
    webhookUrl: draft.webhookUrl,
    ...(due ? { dueDate: due.dueDate, billing: due.billing, expiresAt: dueDateExpiresAt(due) } : {}),
    recurrenceId: draft.asked?.cycle?.recurrenceId ?? null,
  });
}

export async function createCharge(
  deps: Deps,
  caller: Caller,
  body: unknown,
  headerKey: string | undefined,
  requestId: string,
): Promise<CreationAnswer> {
  const request = parseChargeBody(body, { webhookAllowInsecure: deps.config.webhookAllowInsecure });
  if (request.webhookUrl !== null) {
    // Resolved now too, so a receiver on a private address is refused here rather than failing 8 deliveries.
    const receiver = await checkReceiverUrl(request.webhookUrl, deps.config.webhookAllowInsecure);
    if (!receiver.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${receiver.reason}`);
  }
  return createCheckedCharge(deps, caller, request, resolveIdempotencyKey(headerKey, request.externalId), requestId);
}

/**
 * A charge from a request already checked (a body, or a recurrence's cycle or first payment): the
 * key's charge when it repeats one, else a new one through its workflow's accept step.
 */
export async function createCheckedCharge(
  deps: Deps,
  caller: Caller,
  request: ChargeRequest,
  key: string,
  requestId: string,
): Promise<CreationAnswer> {
  const fingerprint = fingerprintOf('charge', chargeComparedFields(request));
  const accountId = caller.account.id;

  const existing = await findTransaction(deps.sql, accountId, key);
  if (existing && existing.externalId === key && compareWithExisting(existing.fingerprint, fingerprint) === 'repeat') {
    const accepting = existing.status === 'pending' && existing.pixCopyPaste === null;
    if (!accepting) return { outcome: 'repeated', transaction: existing };
    const joined = await joinCharge(deps, accountId, key, requestId, fingerprint);
    if (joined === TIMED_OUT) return stillAccepting(deps, accountId, key, fingerprint, () => existing);
    return creationAnswer(deps, accountId, joined);
  }

  if (request.due) checkDueDateAhead(request.due.dueDate, new Date());
  const draft = await draftCharge(deps, caller, request, key, fingerprint);
  const ttlSeconds = deps.config.chargeTtlSeconds;
  const result = await startCharge(deps, { requestId, ttlSeconds, draft }, fingerprint);
  if (result === TIMED_OUT) return stillAccepting(deps, accountId, key, fingerprint, () => chargePreview(draft, ttlSeconds));
  return creationAnswer(deps, accountId, result);
}
