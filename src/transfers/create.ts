// POST /transfers behind the route: validate, bind the idempotency key, price the transfer for the
// account, then start (or join) the transfer's workflow with update-with-start and wait a bounded
// time for its accept step (the row and the reservation in one PostgreSQL transaction). A wait that
// runs out answers 202 only when Temporal knows of the workflow, 503 when it does not answer.
import type { Account, Caller } from '../accounts/account.js';
import { TIMED_OUT } from '../charges/bounded-wait.js';
import { stillAccepting, type CreationAnswer } from '../charges/create.js';
import { acceptWithStart } from '../temporal/accept-with-start.js';
import { compareWithExisting, fingerprintOf, idempotencyConflict, resolveIdempotencyKey } from '../charges/idempotency.js';
import type { Sql } from '../db/database.js';
import type { Deps } from '../deps.js';
import { ApiError, operationRefused } from '../http/errors.js';
import { pendingTransaction } from '../transactions/pending.js';
import { findTransaction } from '../transactions/repository.js';
import { serializeTransaction, type Transaction } from '../transactions/serialize.js';
import { transferAcceptUpdate, transferWorkflow, type TransferAcceptResult } from '../../workflows/transfer.js';
import { priceTransfer, transferComparedFields } from './amounts.js';
import type { BrCodeDestination, TransferDestination } from './destination.js';
import type { TransferDraft, TransferRefusal } from './draft.js';
import { transferTransactionId, transferWorkflowId } from './ids.js';
import { parseTransferBody, type TransferRequest } from './schema.js';

const REFUSALS: Record<TransferRefusal, () => ApiError> = {
  WITHDRAWAL_IN_PROGRESS: () => new ApiError(409, 'WITHDRAWAL_IN_PROGRESS', 'Já existe uma transferência pendente nesta conta; aguarde a conclusão'),
  INSUFFICIENT_BALANCE: () => operationRefused('Saldo disponível insuficiente para a transferência'),
  WITHDRAWALS_BLOCKED: () => withdrawalsBlocked(),
  ACCOUNT_UNAVAILABLE: () => new ApiError(403, 'account_unavailable', 'Conta bloqueada ou indisponível'),
};

function withdrawalsBlocked(): ApiError {
  return new ApiError(423, 'invalid_request', 'Transferências bloqueadas pela administração da conta');
}

/**
 * A BR Code of a pending charge of this engine makes the transfer internal (it pays that charge);
 * a code of a charge that can no longer be paid is refused before anything moves.
 */
async function paysOwnCharge(sql: Sql, destination: BrCodeDestination): Promise<boolean> {
  const [charge] = await sql<{ payable: boolean }[]>`
    select (status = 'pending' and expires_at > now()) as payable
    from transactions where pix_copy_paste = ${destination.code} and direction = 'in'
    limit 1`;
  if (!charge) return false;
  if (!charge.payable) throw operationRefused('Este BR Code não pode mais ser pago: a cobrança já foi paga, cancelada ou expirou');
  return true;
}

function routeDestination(destination: TransferDestination): TransferDraft['destination'] {
  return destination.type === 'pix_key'
    ? { type: 'pix_key', value: destination.key, keyType: destination.keyType }
    : { type: 'pix_copy_paste', value: destination.code };
}

function counterpartyOf(destination: TransferDestination, internal: boolean): Record<string, unknown> {
  if (destination.type === 'pix_key') return { type: 'pix_key', keyType: destination.keyType, key: destination.key };
  return {
    type: 'br_code',
    pixKey: destination.pixKey,
    url: destination.url,
    txid: destination.txid,
    merchantName: destination.merchantName,
    merchantCity: destination.merchantCity,
    internal,
  };
}

/** The account's rules (withdrawals allowed, minimum, fee) applied to a new transfer: the draft to accept. */
async function draftTransfer(deps: Deps, caller: Caller, request: TransferRequest, key: string, fingerprint: string): Promise<TransferDraft> {
  const account: Account = caller.account;
  if (account.withdrawalsBlocked) throw withdrawalsBlocked();
  const amounts = priceTransfer(request, account);
  const internal = request.destination.type === 'br_code' && (await paysOwnCharge(deps.sql, request.destination));
  return {
    transactionId: transferTransactionId(account.id, key),
    accountId: account.id,
    apiKeyId: caller.keyId,
    externalId: key,
    fingerprint,
    route: account.route,
    method: internal ? 'internal' : 'pix',
    amountCents: amounts.amountCents,
    feeCents: amounts.feeCents,
    debitedAmountCents: amounts.debitedAmountCents,
    recipientAmountCents: amounts.recipientAmountCents,
    netAmountCents: amounts.netAmountCents,
    description: request.description,
    destination: routeDestination(request.destination),
    payer: { name: account.name, document: account.document, email: account.email },
    counterparty: counterpartyOf(request.destination, internal),
  };
}

/** The transfer as known before the workflow persisted it: what a 202 shows. */
function draftTransaction(draft: TransferDraft, expirySeconds: number): Transaction {
  return pendingTransaction(draft, expirySeconds, {
    direction: 'out',
    type: 'withdrawal',
    method: draft.method,
    debitedAmountCents: draft.debitedAmountCents,
    recipientAmountCents: draft.recipientAmountCents,
    splitAmountCents: 0,
    split: [],
    payer: draft.payer,
    counterparty: draft.counterparty,
    webhookUrl: null,
  });
}

function answerOf(result: TransferAcceptResult): CreationAnswer {
  if (result.outcome === 'conflict') throw idempotencyConflict();
  if (result.outcome === 'refused') throw REFUSALS[result.refusal]();
  return result.outcome === 'created'
    ? { status: 201, idempotent: false, transaction: result.transaction }
    : { status: 200, idempotent: true, transaction: result.transaction };
}

export async function createTransfer(deps: Deps, caller: Caller, body: unknown, headerKey: string | undefined, requestId: string): Promise<CreationAnswer> {
  const request = parseTransferBody(body);
  const key = resolveIdempotencyKey(headerKey, request.externalId);
  const fingerprint = fingerprintOf('transfer', transferComparedFields(request));
  const accountId = caller.account.id;
  const workflowId = transferWorkflowId(accountId, key);

  const existing = await findTransaction(deps.sql, accountId, key);
  if (existing && existing.externalId === key && compareWithExisting(existing.fingerprint, fingerprint) === 'repeat') {
    return { status: 200, idempotent: true, transaction: serializeTransaction(existing) };
  }

  const draft = await draftTransfer(deps, caller, request, key, fingerprint);
  const result = await acceptWithStart(deps, {
    update: transferAcceptUpdate,
    workflow: transferWorkflow,
    workflowId,
    input: { requestId, draft },
    accountId,
    transactionId: draft.transactionId,
    requestId,
    fingerprint,
  });
  if (result === TIMED_OUT) return stillAccepting(deps, accountId, key, fingerprint, () => draftTransaction(draft, deps.config.chargeTtlSeconds));
  return answerOf(result);
}
