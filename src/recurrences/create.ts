// POST /v1/recurrences: check the body (besides its schema: documents, dates, exactly one of amount
// and minimumAmount, a company receiver), bind the idempotency key to the recurrence (its row, with the
// authorization's BR Code and QR code), create the first payment's charge (journey 3), and start the
// recurrence's workflow. A repeat of the key answers the same recurrence (and makes sure its
// workflow and first payment exist, should the first request have stopped half way). On a PSP route
// the recurrence is created at the PSP before the row is kept, and the authorization code is the PSP's.
import type { Caller } from '../accounts/account.js';
import type { Deps } from '../runtime/deps.js';
import { documentKind, normalizeDocument } from '../domain/documents.js';
import { reaisToCents } from '../domain/money.js';
import { invalidRequest, operationRefused, unavailable } from '../domain/refusal.js';
import { addDays, daysBetween, saoPauloDate } from '../../contracts/calendar.js';
import { buildBrCode } from '../domain/brcode.js';
import { qrPngBase64 } from '../domain/qrcode.js';
import { parseReceiverUrl, checkReceiverUrl } from '../webhooks/ssrf.js';
import { compareWithExisting, fingerprintOf, idempotencyConflict, resolveIdempotencyKey } from '../transactions/idempotency.js';
import { chargeTransactionId } from '../transactions/ids.js';
import { checkMetadata, comparedMetadata } from '../transactions/metadata.js';
import { createCheckedCharge } from '../charges/create.js';
import { checkExternalId } from '../charges/schema.js';
import { checkChargeLimits } from '../charges/terms.js';
import { firstPaymentKey, recurrenceIdOf } from './ids.js';
import { findRecurrence } from './repository.js';
import { toRecurrenceRow, type RawRecurrenceRow, type RecurrenceRow } from './row.js';
import type { RecurrenceBodySchema } from './schema.js';
import type { Static } from 'typebox';
import { startRecurrence } from './workflow-client.js';
import { newTxid } from '../pix-routes/simulator.js';
import { newCheckoutToken } from '../domain/checkout-token.js';
import { recurrenceRoute } from '../pix-routes/registry.js';
import { RouteRefused, type RecurrenceRoute } from '../pix-routes/types.js';
import { PspUnavailable } from '../pix-routes/bcb-api-pix/errors.js';
import type { Sql, TxSql } from '../db/database.js';
import type { CreationAnswer } from '../transactions/creation.js';

type RecurrenceBody = Static<typeof RecurrenceBodySchema>;

/** The standard: a recurrence's first due date is at least this many days after the day it is created. */
const FIRST_DUE_MIN_DAYS = 3;
/** The simulator's key for the authorizations it issues (the BR Code of a recurrence, journey 2). */
const AUTHORIZATION_PIX_KEY = '5f8e2f6c-1d4b-4c8e-9a57-3b2e7c9d0a41';

/** The body's fields as the row stores them (its first payment in centavos), before the row exists. */
type RecurrenceRequest = Pick<
  RecurrenceRow,
  | 'payer'
  | 'contract'
  | 'description'
  | 'frequency'
  | 'firstDueDate'
  | 'endDate'
  | 'amountCents'
  | 'minimumAmountCents'
  | 'retryPolicy'
  | 'webhookUrl'
  | 'metadata'
> & { firstPaymentCents: number | null; externalId?: string };

/** What the schema cannot say, in the order of the body table; throws the 400 naming the field. */
function recurrenceRequest(body: RecurrenceBody, allowInsecure: boolean, now: Date): RecurrenceRequest {
  const name = body.payer.name.trim();
  if (name.length < 3) throw invalidRequest('payer.name deve ter ao menos 3 caracteres', '/payer/name');
  if (documentKind(body.payer.document) === null) throw invalidRequest('payer.document deve ser um CPF ou CNPJ válido', '/payer/document');
  if (body.description.trim() === '') throw invalidRequest('description deve ter de 1 a 35 caracteres', '/description');
  const today = saoPauloDate(now);
  if (daysBetween(today, body.firstDueDate) < FIRST_DUE_MIN_DAYS)
    throw invalidRequest(
      `firstDueDate deve ser ao menos ${FIRST_DUE_MIN_DAYS} dias depois de hoje (${addDays(today, FIRST_DUE_MIN_DAYS)} ou depois)`,
      '/firstDueDate',
    );
  const endDate = body.endDate ?? null;
  if (endDate !== null && daysBetween(body.firstDueDate, endDate) <= 0)
    throw invalidRequest('endDate deve ser depois de firstDueDate', '/endDate');
  if ((body.amount === undefined) === (body.minimumAmount === undefined))
    throw invalidRequest(
      'Informe amount (valor fixo) ou minimumAmount (valor variável), exatamente um dos dois',
      body.amount === undefined ? '/amount' : '/minimumAmount',
    );
  if (typeof body.webhookUrl === 'string') {
    const check = parseReceiverUrl(body.webhookUrl, allowInsecure);
    if (!check.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${check.reason}`, '/webhookUrl');
  }
  return {
    payer: { name, document: normalizeDocument(body.payer.document) },
    contract: body.contract,
    description: body.description.trim(),
    frequency: body.frequency,
    firstDueDate: body.firstDueDate,
    endDate,
    amountCents: body.amount === undefined ? null : reaisToCents(body.amount)!,
    minimumAmountCents: body.minimumAmount === undefined ? null : reaisToCents(body.minimumAmount)!,
    retryPolicy: body.retryPolicy ?? 'none',
    firstPaymentCents: body.firstPayment ? reaisToCents(body.firstPayment.amount)! : null,
    webhookUrl: body.webhookUrl ?? null,
    metadata: checkMetadata(body),
    ...(body.externalId !== undefined ? { externalId: body.externalId } : {}),
  };
}

/** The fields the idempotency rules compare (webhookUrl is not one of them, as for charges). */
function comparedFields(request: RecurrenceRequest): Record<string, unknown> {
  const { webhookUrl: _webhookUrl, externalId: _externalId, metadata, ...compared } = request;
  return { ...compared, ...comparedMetadata(metadata) };
}

export interface RecurrenceCreation {
  outcome: 'created' | 'repeated';
  recurrence: RecurrenceRow;
}

export async function createRecurrence(
  deps: Deps,
  caller: Caller,
  body: unknown,
  headerKey: string | undefined,
  requestId: string,
): Promise<RecurrenceCreation> {
  checkExternalId(body);
  const request = recurrenceRequest(body as RecurrenceBody, deps.config.webhookAllowInsecure, new Date());
  if (request.webhookUrl !== null) {
    const receiver = await checkReceiverUrl(request.webhookUrl, deps.config.webhookAllowInsecure);
    if (!receiver.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${receiver.reason}`, '/webhookUrl');
  }
  const key = resolveIdempotencyKey(headerKey, request.externalId);
  const fingerprint = fingerprintOf('recurrence', comparedFields(request));
  const { account } = caller;

  const existing = await findRecurrence(deps.sql, account.id, key);
  if (existing && existing.externalId === key) {
    if (compareWithExisting(existing.fingerprint, fingerprint) !== 'repeat') throw idempotencyConflict();
    await setUp(deps, caller, existing, requestId);
    return { outcome: 'repeated', recurrence: await findRecurrence(deps.sql, account.id, existing.id).then((row) => row!) };
  }
  if (documentKind(account.document) !== 'cnpj')
    throw operationRefused('Pix Automático: o recebedor de uma recorrência é uma empresa (CNPJ)');
  if (!account.pixReceivingEnabled) throw operationRefused('Recebimentos Pix desabilitados para esta conta');
  // Each cycle of a fixed amount and the first payment are charges of the account.
  if (request.amountCents !== null) checkChargeLimits(account, request.amountCents, '/amount');
  if (request.firstPaymentCents !== null) checkChargeLimits(account, request.firstPaymentCents, '/firstPayment/amount');
  // A variable amount's floor above the account's largest charge would leave no cycle it could charge; below
  // its smallest, each cycle is still held to it.
  if (request.minimumAmountCents !== null)
    checkChargeLimits(account, Math.max(request.minimumAmountCents, account.limits.chargeMinCents), '/minimumAmount');
  const route = recurrenceRouteOf(deps, account.route);

  const recurrenceId = recurrenceIdOf(account.id, key);
  const expiresAt = new Date(Date.now() + deps.config.recurrenceAuthorizationDays * 86_400_000);
  const firstPaymentId = request.firstPaymentCents === null ? null : chargeTransactionId(account.id, firstPaymentKey(recurrenceId));
  const values: RecurrenceValues = { recurrenceId, key, request, expiresAt, firstPaymentId, fingerprint };
  if (route) {
    const opened = await openAtRoute(deps, caller, route, values, requestId);
    // Another request of the key opened it meanwhile: answered as its repetition.
    if (!opened) return createRecurrence(deps, caller, body, headerKey, requestId);
    await startRecurrence(deps, opened);
    return { outcome: 'created', recurrence: opened };
  }

  const copyPaste = buildBrCode({
    pixKey: AUTHORIZATION_PIX_KEY,
    ...(request.firstPaymentCents === null ? {} : { amountCents: request.firstPaymentCents }),
    // Random, as a charge's: the code is on the payer's page, which shows no engine id.
    txid: newTxid(),
    merchantName: account.name,
    merchantCity: 'SAO PAULO',
  });
  const inserted = await insertRecurrence(deps.sql, caller, values, { copyPaste, routeRef: null });
  if (!inserted) return createRecurrence(deps, caller, body, headerKey, requestId);
  await setUp(deps, caller, inserted, requestId);
  return { outcome: 'created', recurrence: (await findRecurrence(deps.sql, account.id, inserted.id))! };
}

/** What the row of a new recurrence is made of besides the authorization. */
interface RecurrenceValues {
  recurrenceId: string;
  key: string;
  request: RecurrenceRequest;
  expiresAt: Date;
  firstPaymentId: string | null;
  fingerprint: string;
}

/** The recurrence side of the account's route; null for the simulator. A route that takes no recurrences is a 422. */
function recurrenceRouteOf(deps: Deps, name: string): RecurrenceRoute | null {
  try {
    return recurrenceRoute(deps, name);
  } catch (err) {
    if (err instanceof RouteRefused) throw operationRefused(`A rota ${name} não oferece Pix Automático`);
    throw err;
  }
}

/** Inserts the recurrence; null when a row of the key exists already. */
async function insertRecurrence(
  sql: Sql | TxSql,
  caller: Caller,
  { recurrenceId, key, request, expiresAt, firstPaymentId, fingerprint }: RecurrenceValues,
  authorization: { copyPaste: string; routeRef: string | null },
): Promise<RecurrenceRow | null> {
  const { account } = caller;
  const qrCodeBase64 = await qrPngBase64(authorization.copyPaste);
  const [inserted] = await sql<RawRecurrenceRow[]>`
    insert into recurrences (
      id, account_id, external_id, status, payer, contract, description, frequency, first_due_date, end_date,
      amount, minimum_amount, retry_policy, authorization_copy_paste, authorization_qr_code_base64, authorization_expires_at,
      first_payment_amount, first_payment_transaction_id, route, route_ref, webhook_url, metadata, fingerprint, api_key_id, checkout_token)
    values (
      ${recurrenceId}, ${account.id}, ${key}, 'pending_authorization', ${sql.json(request.payer)}, ${request.contract},
      ${request.description}, ${request.frequency}, ${request.firstDueDate}, ${request.endDate},
      ${request.amountCents}, ${request.minimumAmountCents}, ${request.retryPolicy}, ${authorization.copyPaste}, ${qrCodeBase64}, ${expiresAt},
      ${request.firstPaymentCents}, ${firstPaymentId}, ${account.route}, ${authorization.routeRef}, ${request.webhookUrl},
      ${sql.json(request.metadata)}, ${fingerprint}, ${caller.keyId}, ${newCheckoutToken()})
    on conflict (account_id, external_id) do nothing
    returning *`;
  return inserted ? toRecurrenceRow(inserted) : null;
}

/**
 * A recurrence on a PSP route (design/pix-automatico.md "On the bcb-api-pix route"): journey 3's first
 * payment first (its cob must exist to be named), then, holding the key's lock in one PostgreSQL
 * transaction, the PSP's locrec and rec and the row with the PSP's authorization code. Nothing is kept
 * when the PSP refuses or does not answer (the key stays free: a repetition starts again). Null when
 * another request of the key kept it first.
 */
async function openAtRoute(
  deps: Deps,
  caller: Caller,
  route: RecurrenceRoute,
  values: RecurrenceValues,
  requestId: string,
): Promise<RecurrenceRow | null> {
  const { recurrenceId, request, firstPaymentId } = values;
  if (request.firstPaymentCents !== null) {
    const firstPayment = await createFirstPayment(
      deps,
      caller,
      { id: recurrenceId, ...request, firstPaymentAmountCents: request.firstPaymentCents },
      requestId,
    );
    if (firstPayment.transaction.pixCopyPaste === null)
      throw unavailable(`A rota ${route.name} ainda não criou o primeiro pagamento; repita com a mesma chave de idempotência`, 5);
  }
  try {
    return await deps.sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtextextended(${recurrenceId}, 0))`;
      const [existing] = await tx`select 1 from recurrences where id = ${recurrenceId}`;
      if (existing) return null;
      const created = await route.createRecurrence({
        recurrenceId,
        payer: request.payer,
        contract: request.contract,
        description: request.description,
        frequency: request.frequency,
        firstDueDate: request.firstDueDate,
        endDate: request.endDate,
        amountCents: request.amountCents,
        minimumAmountCents: request.minimumAmountCents,
        retryPolicy: request.retryPolicy,
        firstPaymentTransactionId: firstPaymentId,
      });
      return insertRecurrence(tx, caller, values, created);
    });
  } catch (err) {
    if (err instanceof RouteRefused) throw operationRefused(`A rota ${route.name} recusou a recorrência: ${err.message}`);
    if (err instanceof PspUnavailable) throw unavailable(`A rota ${route.name} não respondeu; repita com a mesma chave de idempotência`, 5);
    throw err;
  }
}

/**
 * The recurrence's workflow and its first payment (journey 3), each created once. The workflow first: a
 * first payment the account's rules refuse must not leave a recurrence that nothing can change.
 */
async function setUp(deps: Deps, caller: Caller, recurrence: RecurrenceRow, requestId: string): Promise<void> {
  await startRecurrence(deps, recurrence);
  const { firstPaymentAmountCents } = recurrence;
  if (firstPaymentAmountCents !== null) await createFirstPayment(deps, caller, { ...recurrence, firstPaymentAmountCents }, requestId);
}

type FirstPaymentOf = Pick<RecurrenceRow, 'id' | 'payer' | 'description' | 'webhookUrl'> & { firstPaymentAmountCents: number };

/** Journey 3's immediate charge, under the recurrence's own key (a repetition joins it). */
function createFirstPayment(deps: Deps, caller: Caller, recurrence: FirstPaymentOf, requestId: string): Promise<CreationAnswer> {
  return createCheckedCharge(
    deps,
    caller,
    {
      amountCents: recurrence.firstPaymentAmountCents,
      payer: recurrence.payer,
      description: recurrence.description,
      coverFee: false,
      split: [],
      metadata: {},
      webhookUrl: recurrence.webhookUrl,
    },
    firstPaymentKey(recurrence.id),
    `${requestId}:first-payment`,
  );
}
