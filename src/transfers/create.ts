// POST /transfers behind the route: validate, bind the idempotency key, then start (or join) the
// transfer's workflow with update-with-start and wait a bounded time for its accept step, which
// applies the account's rules, inserts the row and reserves the funds in one PostgreSQL transaction,
// and answers for every request of the key. A wait that runs out answers 202 only when Temporal
// knows of the workflow, 503 when it does not answer.
import type { Caller } from '../accounts/account.js';
import { TIMED_OUT } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';
import { creationAnswer, draftIdentity, previewOf, stillAccepting, type CreationAnswer } from '../transactions/creation.js';
import { pendingTransaction } from '../transactions/pending.js';
import { findTransaction } from '../transactions/repository.js';
import type { TransactionRow } from '../transactions/row.js';
import { compareWithExisting, fingerprintOf, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { transferTransactionId } from '../transactions/ids.js';
import { requiredAmountCents, transferComparedFields } from './amounts.js';
import { readQrImageDestination } from './destination.js';
import type { TransferAsked, TransferDraft } from './contract.js';
import { parseTransferBody, type TransferRequest } from './schema.js';
import { checkRouteSends, transferTerms } from './terms.js';
import { startTransfer } from './workflow-client.js';

function routeDestination(request: TransferRequest): TransferDraft['destination'] {
  const { destination } = request;
  return destination.type === 'pix_key'
    ? { type: 'pix_key', value: destination.key, keyType: destination.keyType }
    : { type: 'pix_copy_paste', value: destination.code };
}

async function draftTransfer(
  deps: Deps,
  caller: Caller,
  request: TransferRequest,
  key: string,
  fingerprint: string,
): Promise<TransferDraft> {
  const { account } = caller;
  const asked: TransferAsked = { amountCents: request.amountCents, coverFee: request.coverFee, destination: request.destination };
  return {
    ...draftIdentity(caller, key, fingerprint, transferTransactionId(account.id, key)),
    ...(await previewOf(transferTerms(deps.sql, account, asked), () => {
      const amountCents = requiredAmountCents(asked);
      return {
        amountCents,
        feeCents: 0,
        debitedAmountCents: amountCents,
        recipientAmountCents: amountCents,
        netAmountCents: amountCents,
        method: 'pix',
        counterparty: {},
      };
    })),
    description: request.description,
    ...(Object.keys(request.metadata).length ? { metadata: request.metadata } : {}),
    destination: routeDestination(request),
    payer: { name: account.name, document: account.document, email: account.email },
    asked,
  };
}

/** The transfer as known before the workflow persisted it: what a 202 shows. */
function transferPreview(draft: TransferDraft, expirySeconds: number): TransactionRow {
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

export async function createTransfer(
  deps: Deps,
  caller: Caller,
  body: unknown,
  headerKey: string | undefined,
  requestId: string,
): Promise<CreationAnswer> {
  const request = parseTransferBody(await readQrImageDestination(body, caller.account.id));
  requiredAmountCents(request);
  const key = resolveIdempotencyKey(headerKey, request.externalId);
  const fingerprint = fingerprintOf('transfer', transferComparedFields(request));
  const accountId = caller.account.id;

  const existing = await findTransaction(deps.sql, accountId, key);
  if (existing && existing.externalId === key && compareWithExisting(existing.fingerprint, fingerprint) === 'repeat') {
    return { outcome: 'repeated', transaction: existing };
  }

  checkRouteSends(deps.config, caller.account);
  const draft = await draftTransfer(deps, caller, request, key, fingerprint);
  const result = await startTransfer(deps, { requestId, draft }, fingerprint);
  if (result === TIMED_OUT)
    return stillAccepting(deps, accountId, key, fingerprint, () => transferPreview(draft, deps.config.chargeTtlSeconds));
  return creationAnswer(deps, accountId, result);
}
