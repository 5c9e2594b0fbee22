// POST /transactions behind the route: the request parsed once (schema.ts), its idempotency key bound,
// then the charge's workflow started (or joined) with update-with-start, waiting a bounded time for its
// accept step, which prices the charge under the account's lock and answers for every request of the key.
import type { Account, Caller } from '../accounts/account.js';
import type { Deps } from '../runtime/deps.js';
import { creationAnswer, draftIdentity, previewOf, stillAccepting, type CreationAnswer } from '../transactions/creation.js';
import { findTransaction } from '../transactions/repository.js';
import { pendingTransaction } from '../transactions/pending.js';
import type { TransactionRow } from '../transactions/row.js';
import { compareWithExisting, fingerprintOf, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { chargeTransactionId } from '../transactions/ids.js';
import { TIMED_OUT } from '../async/within.js';
import type { ChargeAsked, ChargeDraft } from './contract.js';
import { chargeComparedFields, parseChargeRequest, type ChargeBody, type ChargeRequest } from './schema.js';
import { chargeTerms, type ChargeTerms } from './terms.js';
import { joinCharge, startCharge } from './workflow-client.js';
import { dueDateExpiresAt } from '../domain/due-date-validity.js';
import { checkDueDateAhead } from './due-date/body.js';

/** What was asked, before the account's rules price it: a fee, a split and a coverFee come from the accept step. */
const unpriced = (asked: ChargeAsked): ChargeTerms => ({
  amountCents: asked.amountCents,
  feeCents: 0,
  splitAmountCents: 0,
  netAmountCents: asked.amountCents,
  split: [],
});

/** A charge's draft from a request: it always says what was asked. */
type AskedDraft = ChargeDraft & { asked: ChargeAsked };

/**
 * The workflow's input: the request as asked. Its amounts are the asked ones, unpriced: the accept step
 * prices `asked` against the account as it is then, the one pricing of a charge.
 */
function draftCharge(caller: Caller, request: ChargeRequest, key: string, fingerprint: string): AskedDraft {
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
    ...unpriced(asked),
    description: request.description,
    ...(Object.keys(request.metadata).length ? { metadata: request.metadata } : {}),
    payer: request.payer,
    webhookUrl: request.webhookUrl,
    asked,
  };
}

/** The charge as known while the accept step has not answered (what a 202 shows), priced by the account's rules now. */
async function chargePreview(deps: Deps, account: Account, draft: AskedDraft, ttlSeconds: number): Promise<TransactionRow> {
  const { asked } = draft;
  const terms = await previewOf(chargeTerms(deps.sql, account, asked), () => unpriced(asked));
  const due = asked.due;
  return pendingTransaction({ ...draft, ...terms }, ttlSeconds, {
    direction: 'in',
    type: 'payment',
    method: 'pix',
    debitedAmountCents: null,
    recipientAmountCents: null,
    splitAmountCents: terms.splitAmountCents,
    split: terms.split,
    payer: { ...draft.payer, email: draft.payer.email ?? null },
    counterparty: null,
    webhookUrl: draft.webhookUrl,
    ...(due ? { dueDate: due.dueDate, billing: due.billing, expiresAt: dueDateExpiresAt(due) } : {}),
    recurrenceId: asked.cycle?.recurrenceId ?? null,
  });
}

/** A charge from a body the route's schema accepted: parsed here, once, into the request the rest takes. */
export async function createCharge(
  deps: Deps,
  caller: Caller,
  body: ChargeBody,
  headerKey: string | undefined,
  requestId: string,
): Promise<CreationAnswer> {
  const request = await parseChargeRequest(body, { webhookAllowInsecure: deps.config.webhookAllowInsecure });
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
  const draft = draftCharge(caller, request, key, fingerprint);
  const ttlSeconds = deps.config.chargeTtlSeconds;
  const result = await startCharge(deps, { requestId, ttlSeconds, draft }, fingerprint);
  if (result === TIMED_OUT)
    return stillAccepting(deps, accountId, key, fingerprint, () => chargePreview(deps, caller.account, draft, ttlSeconds));
  return creationAnswer(deps, accountId, result);
}
