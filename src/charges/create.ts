// POST /transactions behind the route: validate, bind the idempotency key, then start (or join) the
// charge's workflow with update-with-start and wait a bounded time for its accept step.
import type { Caller } from '../accounts/account.js';
import type { Deps } from '../deps.js';
import { chargeAmounts } from '../domain/fees.js';
import { ApiError, invalidRequest, operationRefused } from '../http/errors.js';
import { findTransaction } from '../transactions/repository.js';
import { pendingTransaction } from '../transactions/pending.js';
import { serializeTransaction, type Transaction } from '../transactions/serialize.js';
import { acceptUpdate, chargeWorkflow, type AcceptResult } from '../../workflows/charge.js';
import { TIMED_OUT, within } from './bounded-wait.js';
import type { ChargeDraft } from './draft.js';
import { compareWithExisting, fingerprintOf, idempotencyConflict, resolveIdempotencyKey } from './idempotency.js';
import { chargeTransactionId, chargeWorkflowId } from './ids.js';
import { resolveSplitRecipients } from './recipients.js';
import { chargeComparedFields, parseChargeBody, type ChargeRequest } from './schema.js';
import { checkReceiverUrl } from '../webhooks/ssrf.js';
import { acceptWithStart } from '../temporal/accept-with-start.js';


export interface CreationAnswer {
  status: 200 | 201 | 202;
  idempotent: boolean;
  transaction: Transaction;
}

const formatReais = (cents: number) => (cents / 100).toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** The account's rules (receiving enabled, limits, fee, split) applied to a new charge: the row to persist. */
async function draftCharge(deps: Deps, caller: Caller, request: ChargeRequest, key: string, fingerprint: string): Promise<ChargeDraft> {
  const { account } = caller;
  if (!account.pixReceivingEnabled) throw operationRefused('O recebimento via Pix está desativado para esta conta');
  const { chargeMinCents, chargeMaxCents } = account.limits;
  if (request.amountCents < chargeMinCents || request.amountCents > chargeMaxCents) {
    throw invalidRequest(`Valor fora dos limites: a cobrança deve ser de ${formatReais(chargeMinCents)} a ${formatReais(chargeMaxCents)}`);
  }
  const amounts = chargeAmounts({
    amountCents: request.amountCents,
    coverFee: request.coverFee,
    rule: account.fees.charge,
    split: request.split.map((item) => ({
      recipient: item.recipient,
      ...(item.amountCents !== undefined ? { amount: item.amountCents } : { percent: item.percent! }),
    })),
  });
  if (!amounts.ok && amounts.code === 'FEE_EXCEEDS_AMOUNT') throw invalidRequest('O valor deve ser maior que a taxa da operação');
  if (!amounts.ok) throw new ApiError(422, 'SPLIT_EXCEEDS_SALE', 'O split não cabe no valor da venda depois da taxa');
  const recipients = await resolveSplitRecipients(deps.sql, account.id, request.split.map((item) => item.recipient));
  return {
    transactionId: chargeTransactionId(account.id, key),
    accountId: account.id,
    apiKeyId: caller.keyId,
    externalId: key,
    fingerprint,
    route: account.route,
    merchantName: account.name,
    amountCents: amounts.payerAmountCents,
    feeCents: amounts.feeCents,
    splitAmountCents: amounts.splitAmountCents,
    netAmountCents: amounts.netAmountCents,
    split: request.split.map((item, index) => ({
      recipient: item.recipient,
      accountId: recipients[index]!,
      amountCents: amounts.splitShares[index]!.amountCents,
      percent: item.percent ?? null,
      description: item.description ?? null,
    })),
    description: request.description,
    payer: request.payer,
    webhookUrl: request.webhookUrl,
  };
}

/** The charge as known before the workflow persisted it: what a 202 shows. */
function draftTransaction(draft: ChargeDraft, ttlSeconds: number): Transaction {
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
  });
}

function answerOf(result: AcceptResult): CreationAnswer {
  if (result.outcome === 'conflict') throw idempotencyConflict();
  return result.outcome === 'created'
    ? { status: 201, idempotent: false, transaction: result.transaction }
    : { status: 200, idempotent: true, transaction: result.transaction };
}

/** What a request that could not wait for the accept step answers: 202 with the transaction as known now. */
export async function stillAccepting(deps: Deps, accountId: string, key: string, fingerprint: string, fallback: () => Transaction): Promise<CreationAnswer> {
  const row = await findTransaction(deps.sql, accountId, key);
  if (row && row.externalId === key && row.fingerprint !== fingerprint) throw idempotencyConflict();
  const known = row && row.externalId === key ? serializeTransaction(row) : fallback();
  return { status: 202, idempotent: false, transaction: known };
}

export async function createCharge(deps: Deps, caller: Caller, body: unknown, headerKey: string | undefined, requestId: string): Promise<CreationAnswer> {
  const request = parseChargeBody(body, { webhookAllowInsecure: deps.config.webhookAllowInsecure });
  if (request.webhookUrl !== null) {
    // Resolved now too, so a receiver on a private address is refused here rather than failing 8 deliveries.
    const receiver = await checkReceiverUrl(request.webhookUrl, deps.config.webhookAllowInsecure);
    if (!receiver.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${receiver.reason}`);
  }
  const key = resolveIdempotencyKey(headerKey, request.externalId);
  const fingerprint = fingerprintOf('charge', chargeComparedFields(request));
  const accountId = caller.account.id;
  const workflowId = chargeWorkflowId(accountId, key);

  const existing = await findTransaction(deps.sql, accountId, key);
  if (existing && existing.externalId === key && compareWithExisting(existing.fingerprint, fingerprint) === 'repeat') {
    const accepting = existing.status === 'pending' && existing.pixCopyPaste === null;
    if (!accepting) return { status: 200, idempotent: true, transaction: serializeTransaction(existing) };
    const joined = await within(deps.temporal.workflow.getHandle(workflowId).executeUpdate(acceptUpdate, { args: [{ requestId, fingerprint }] }), deps.config.acceptWaitMs);
    if (joined === TIMED_OUT) return stillAccepting(deps, accountId, key, fingerprint, () => serializeTransaction(existing));
    return answerOf(joined);
  }

  const draft = await draftCharge(deps, caller, request, key, fingerprint);
  const ttlSeconds = deps.config.chargeTtlSeconds;
  const result = await acceptWithStart(deps, {
    update: acceptUpdate,
    workflow: chargeWorkflow,
    workflowId,
    input: { requestId, ttlSeconds, draft },
    accountId,
    transactionId: draft.transactionId,
    requestId,
    fingerprint,
  });
  if (result === TIMED_OUT) return stillAccepting(deps, accountId, key, fingerprint, () => draftTransaction(draft, ttlSeconds));
  return answerOf(result);
}
