// The steps of a charge's life that touch PostgreSQL or the route, each idempotent so that an
// activity retried by Temporal does its work once: persist, open at the route, ask the route, and
// settle (status change, ledger posting and event in one PostgreSQL transaction). Each answers its
// workflow the charge as the workflow knows it (ChargeTransactionState), read from the row.
import { newCheckoutToken } from '../domain/checkout-token.js';
import type { Sql, TxSql } from '../db/database.js';
import { groupCommit, type GroupCommit } from '../db/group-commit.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import type { Entry } from '../ledger/post.js';
import { chargeRoute, routeIsRemote, type ChargeRouteDeps } from '../pix-routes/registry.js';
import { unsettlablePayments } from '../metrics/registry.js';
import { countCycleOutcome, countStatusReached } from '../metrics/transactions.js';
import type { ChargeState, RouteDueDateCharge } from '../pix-routes/types.js';
import { toTransactionRow, type RawTransactionRow, type StoredPayer, type TransactionRow } from '../transactions/row.js';
import { findTransactionByKey } from '../transactions/repository.js';
import {
  loadTransactionRow,
  settleManyOnce,
  settleOnce,
  transactionState,
  type Repriced,
  type Settlement,
} from '../transactions/settle.js';
import { paidChargeAmounts } from '../domain/fees.js';
import { CentsOutOfRange, isExactCents } from '../domain/money.js';
import { accept, checkAccountState, rulesUnlessKept } from '../transactions/acceptance.js';
import type { FeeRule } from '../accounts/account.js';
import type { ChargeDraft, ChargeTransactionState, DueDateTerms, PaidAtRoute, PersistedCharge, RouteChargeState } from './contract.js';
import type { Settled } from '../../contracts/transaction.contract.js';
import { chargeTerms, type ChargeTerms } from './terms.js';
import { dueDateExpiresAt } from '../domain/due-date-validity.js';

/** The route needs the configured routes and a logger besides PostgreSQL. */
export type ChargeLifecycleDeps = ChargeRouteDeps;

/** The charge as its workflow knows it (src/charges/contract.ts). */
const chargeTransactionState = (row: TransactionRow): ChargeTransactionState => ({
  ...transactionState(row),
  expiresAtMs: row.expiresAt.getTime(),
  opened: row.pixCopyPaste !== null,
  ...(row.dueDate === null ? {} : { dueDate: row.dueDate }),
});

const settledCharge = ({ row, eventIds }: Settlement): Settled<ChargeTransactionState> => ({
  transaction: chargeTransactionState(row),
  eventIds,
});

interface PersistInput {
  draft: ChargeDraft;
  createdAtMs: number;
  ttlSeconds: number;
}

type RefusedCharge = Extract<PersistedCharge, { outcome: 'refused' }>;

/** The accept step's row, and the name the route shows the payer. */
interface PersistedRow {
  row: TransactionRow;
  created: boolean;
  merchantName: string;
}

/**
 * The accept step: the key's existing charge as it is, or the account's rules applied now (state,
 * receiving, limits, fee, split) and the pending `txn_` row inserted, or the refusal (nothing kept).
 * A draft without `asked` comes from a run whose API already priced it: its amounts stand.
 */
async function persistChargeRow(deps: ChargeLifecycleDeps, input: PersistInput): Promise<PersistedRow | RefusedCharge> {
  const { draft } = input;
  const decided = await accept(deps.sql, draft.accountId, async (tx, account): Promise<PersistedRow> => {
    const kept = (row: TransactionRow, created: boolean) => ({ row, created, merchantName: account.name });
    const ruled = await rulesUnlessKept(tx, draft.accountId, draft.externalId, () => {
      checkAccountState(account);
      return draft.asked ? chargeTerms(tx, account, draft.asked) : draft;
    });
    if ('kept' in ruled) return kept(ruled.kept, false);
    const due = draft.asked?.due;
    const [inserted] = await insertCharge(tx, draft, ruled.terms, {
      ...input,
      due: due ? { terms: due, feeRule: account.fees.charge } : null,
    });
    // The key's operation is persisted (a retried step, or another run, a transfer, took the key): it answers.
    if (!inserted) return kept(await loadByKey(tx, draft), false);
    return kept(toTransactionRow(inserted), true);
  });
  if ('refused' in decided) return { outcome: 'refused', refusal: decided.refused };
  if (decided.accepted.created) countStatusReached(decided.accepted.row);
  return decided.accepted;
}

const persistedCharge = (
  deps: ChargeLifecycleDeps,
  { row, created }: PersistedRow,
): Extract<PersistedCharge, { outcome: 'persisted' }> => ({
  outcome: 'persisted',
  transaction: chargeTransactionState(row),
  fingerprint: row.fingerprint,
  created,
  // A route name no route answers to is refused later, at creation.
  remote: routeIsRemote(() => chargeRoute(deps, row.route)),
});

export async function persistCharge(deps: ChargeLifecycleDeps, input: PersistInput): Promise<PersistedCharge> {
  const persisted = await persistChargeRow(deps, input);
  return 'refusal' in persisted ? persisted : persistedCharge(deps, persisted);
}

/**
 * The accept step in one local activity (PERSIST_AND_OPEN): persistCharge and, for a charge of this run
 * still to open on an in-process route, openChargeAtRoute. An open that fails, for whatever reason, is
 * left to the workflow's own open step, which retries it or settles the charge failed on a refusal.
 */
export async function persistAndOpenCharge(deps: ChargeLifecycleDeps, input: PersistInput): Promise<PersistedCharge> {
  const persisted = await persistChargeRow(deps, input);
  if ('refusal' in persisted) return persisted;
  const charge = persistedCharge(deps, persisted);
  const { row, merchantName } = persisted;
  // A key bound to another operation (a transfer) has no charge to open; openLoadedCharge itself leaves
  // a charge already opened or settled as it is.
  if (charge.remote || row.id !== input.draft.transactionId) return charge;
  try {
    return { ...charge, transaction: await openLoadedCharge(deps, row, merchantName) };
  } catch {
    return charge;
  }
}

async function loadByKey(tx: TxSql, draft: ChargeDraft): Promise<TransactionRow> {
  const row = await findTransactionByKey(tx, draft.accountId, draft.externalId);
  if (!row) throw new Error(`charge ${draft.transactionId}: insert skipped but no row found`);
  return row;
}

/** A due-date charge's terms, and the fee rule its paid amount will be priced with. */
interface DueDateCharge {
  terms: DueDateTerms;
  feeRule: FeeRule;
}

function insertCharge(
  tx: TxSql,
  draft: ChargeDraft,
  terms: ChargeTerms,
  times: { createdAtMs: number; ttlSeconds: number; due: DueDateCharge | null },
): Promise<RawTransactionRow[]> {
  const { due } = times;
  const createdAt = new Date(times.createdAtMs);
  const expiresAt = due ? dueDateExpiresAt(due.terms) : new Date(times.createdAtMs + times.ttlSeconds * 1000);
  const payer: StoredPayer = { name: draft.payer.name, document: draft.payer.document, email: draft.payer.email ?? null };
  return tx<RawTransactionRow[]>`
    insert into transactions (
      id, account_id, external_id, direction, type, method, status, processing_state, acquirer,
      amount, fee, net_amount, split_amount, split, description, payer, webhook_url, fingerprint,
      api_key_id, expires_at, created_at, updated_at, due_date, billing, fee_rule, checkout_token, metadata, recurrence_id)
    values (
      ${draft.transactionId}, ${draft.accountId}, ${draft.externalId}, 'in', 'payment', 'pix', 'pending', 'monitoring', ${draft.route},
      ${terms.amountCents}, ${terms.feeCents}, ${terms.netAmountCents}, ${terms.splitAmountCents},
      ${tx.json(terms.split as never)}, ${draft.description}, ${tx.json(payer as never)}, ${draft.webhookUrl}, ${draft.fingerprint},
      ${draft.apiKeyId}, ${expiresAt}, ${createdAt}, ${createdAt},
      ${due?.terms.dueDate ?? null}, ${due ? tx.json(due.terms.billing as never) : null}, ${due ? tx.json(due.feeRule as never) : null},
      ${newCheckoutToken()}, ${tx.json(draft.metadata ?? {})}, ${draft.asked?.cycle?.recurrenceId ?? null})
    on conflict do nothing
    returning *`;
}

/** A due-date charge as its route asks for it; undefined for an immediate one. */
function dueAtRoute(row: TransactionRow, recurrenceRef: string | null = null): RouteDueDateCharge | undefined {
  if (row.dueDate === null || row.billing === null) return undefined;
  const due = { dueDate: row.dueDate, billing: row.billing, amountCents: row.amountCents };
  return row.recurrenceId === null ? due : { ...due, cycle: { recurrenceId: row.recurrenceId, recurrenceRef } };
}

/** Creates the charge at the account's route and stores its BR Code and QR code. */
export async function openChargeAtRoute(deps: ChargeLifecycleDeps, transactionId: string): Promise<ChargeTransactionState> {
  const [raw] = await deps.sql<(RawTransactionRow & { merchant_name: string })[]>`
    select t.*, a.name as merchant_name from transactions t join accounts a on a.id = t.account_id where t.id = ${transactionId}`;
  if (!raw) throw new Error(`charge ${transactionId} not found`);
  return openLoadedCharge(deps, toTransactionRow(raw), raw.merchant_name);
}

async function openLoadedCharge(deps: ChargeLifecycleDeps, row: TransactionRow, merchantName: string): Promise<ChargeTransactionState> {
  if (row.pixCopyPaste !== null || row.status !== 'pending') return chargeTransactionState(row);
  const transactionId = row.id;
  const due = dueAtRoute(row, row.recurrenceId === null ? null : await recurrenceRefOf(deps.sql, row.recurrenceId));
  const created = await chargeRoute(deps, row.route).createCharge({
    transactionId,
    amountCents: row.amountCents,
    merchantName,
    description: row.description,
    expiresAt: row.expiresAt,
    payer: { name: row.payer.name, document: row.payer.document },
    ...(due ? { due: { dueDate: due.dueDate, billing: due.billing } } : {}),
    ...(due?.cycle ? { cycle: due.cycle } : {}),
  });
  const [updated] = await deps.sql<RawTransactionRow[]>`
    update transactions
    set pix_copy_paste = ${created.copyPaste}, pix_qr_code_base64 = ${created.qrCodeBase64}, processor_ref = ${created.routeRef}, updated_at = now()
    where id = ${transactionId} and pix_copy_paste is null
    returning *`;
  return chargeTransactionState(updated ? toTransactionRow(updated) : await loadTransactionRow(deps.sql, transactionId));
}

/** The route's id of a cycle charge's recurrence (a PSP's idRec; null on the simulator). */
async function recurrenceRefOf(sql: Sql, recurrenceId: string): Promise<string | null> {
  const [row] = await sql<{ route_ref: string | null }[]>`select route_ref from recurrences where id = ${recurrenceId}`;
  return row?.route_ref ?? null;
}

/** The route's answer about a charge as it travels to the workflow (dates as ISO strings). */
function travellingChargeState(state: ChargeState): RouteChargeState {
  if (state.status === 'paid') {
    const { paidAt, amountCents, payer, endToEndId } = state;
    return { status: 'paid', paidAt: paidAt.toISOString(), amountCents, payer, ...(endToEndId === undefined ? {} : { endToEndId }) };
  }
  return state;
}

export async function chargeStateAtRoute(deps: ChargeLifecycleDeps, transactionId: string): Promise<RouteChargeState> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  return travellingChargeState(await chargeRoute(deps, row.route).chargeStatus(transactionId, dueAtRoute(row)));
}

/** Cancels the expired charge at the route; the answer is final: `paid` when the payment won the race. */
/** `reason`: `other` for a cycle charge its recurrence's cancellation or a failed debit withdraws (RECURRENCE_CYCLES). */
export async function cancelChargeAtRoute(
  deps: ChargeLifecycleDeps,
  transactionId: string,
  reason: 'expired' | 'other' = 'expired',
): Promise<Exclude<RouteChargeState, { status: 'pending' }>> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  const state = travellingChargeState(await chargeRoute(deps, row.route).cancelCharge(transactionId, reason, dueAtRoute(row)));
  // A route that has not decided yet: fail the attempt so the activity retries until it has.
  if (state.status === 'pending' || state.status === 'declined')
    throw new Error(`route ${row.route} has not cancelled ${transactionId} yet`);
  return state;
}

/**
 * Asks the route to withdraw a cycle charge it holds, ahead of its recurrence's cancellation there (a PSP
 * may no longer revise a cycle once its recurrence is cancelled). The answer is not kept: the charge's
 * workflow, told of the cancellation, settles on the route's own word.
 */
export async function withdrawCycleAtRoute(deps: ChargeLifecycleDeps, transactionId: string): Promise<void> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  if (row.status !== 'pending' || row.pixCopyPaste === null) return;
  await chargeRoute(deps, row.route).cancelCharge(transactionId, 'other', dueAtRoute(row));
}

/** A declined cycle charge's next debit attempt on `day` (RECURRENCE_CYCLES). */
export async function retryCycleAtRoute(deps: ChargeLifecycleDeps, transactionId: string, day: string): Promise<void> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  const route = chargeRoute(deps, row.route);
  if (!route.retryCycle) throw new Error(`route ${row.route} cannot retry the debit of ${transactionId}`);
  await route.retryCycle(transactionId, day);
  countCycleOutcome('retried');
}

/** The settlement of a paid charge: what the payer paid out of Pix clearing, fee to revenue, split shares and net to the accounts. */
function paidChargeEntries(row: TransactionRow): Entry[] {
  return [
    { account: platformAccount('pix_clearing', row.id), amount: -(row.paidAmountCents ?? row.amountCents) },
    { account: platformAccount('fee_revenue', row.id), amount: row.feeCents },
    ...row.split.map((share) => ({ account: customerAccount(share.accountId, 'available'), amount: share.amountCents })),
    { account: customerAccount(row.accountId, 'available'), amount: row.netAmountCents },
  ];
}

const paidChargePosting = (row: TransactionRow) => ({
  key: `charge:${row.id}:settle`,
  description: 'Cobrança Pix paga',
  entries: paidChargeEntries(row),
});

/** A due-date charge is priced at approval on what was paid, with the fee rule it was accepted with. */
function pricedOnPaid(row: TransactionRow): Repriced | null {
  if (row.feeRule === null || row.paidAmountCents === null) return null;
  const shares = row.split.map((share) => (share.percent !== null ? { percent: share.percent } : { amountCents: share.amountCents }));
  const amounts = paidChargeAmounts(row.paidAmountCents, row.feeRule, shares);
  return {
    feeCents: amounts.feeCents,
    netAmountCents: amounts.netAmountCents,
    splitAmountCents: amounts.splitAmountCents,
    split: row.split.map((share, index) => ({ ...share, amountCents: amounts.shareCents[index]! })),
  };
}

interface PaidCharge {
  transactionId: string;
  paid: PaidAtRoute;
}

function settleOnePaid(sql: Sql, { transactionId, paid }: PaidCharge): Promise<Settlement> {
  return settleOnce(
    sql,
    transactionId,
    (tx) => tx`
      status = 'approved', processing_state = 'completed', approved_at = ${new Date(paid.paidAt)}, end_to_end_id = ${paid.endToEndId ?? null},
      paid_amount = ${paid.amountCents}, payer = coalesce(payer, '{}'::jsonb) || ${tx.json(payerAtRoute(paid) as never)}`,
    paidChargePosting,
    pricedOnPaid,
  );
}

function settleManyPaid(sql: Sql, charges: PaidCharge[]): Promise<(Settlement | undefined)[]> {
  return settleManyOnce(
    sql,
    charges.map((c) => c.transactionId),
    (tx) => ({
      from: tx`unnest(${charges.map((c) => c.transactionId)}::text[], ${charges.map((c) => c.paid.paidAt)}::timestamptz[],
                      ${charges.map((c) => c.paid.endToEndId ?? null)}::text[], ${charges.map((c) => JSON.stringify(payerAtRoute(c.paid)))}::text[],
                      ${charges.map((c) => c.paid.amountCents)}::bigint[])
               as p(id, paid_at, end_to_end_id, payer, paid_amount)`,
      set: tx`status = 'approved', processing_state = 'completed', approved_at = p.paid_at, end_to_end_id = p.end_to_end_id,
              paid_amount = p.paid_amount, payer = coalesce(t.payer, '{}'::jsonb) || p.payer::jsonb`,
    }),
    paidChargePosting,
    pricedOnPaid,
  );
}

// Approvals arriving together (many payments at once) settle in one PostgreSQL transaction.
const paidSettlements = new WeakMap<Sql, GroupCommit<PaidCharge, Settlement>>();

/**
 * Approves a paid charge: status, ledger posting and events in one PostgreSQL transaction. A paid amount
 * the ledger cannot take exactly (a charge accepted before its amounts were bounded) is refused before
 * anything is written, with an alert: the payer paid and the engine cannot credit it, so an operator must
 * settle it with the payer; the CentsOutOfRange ends the activity for good (activities/final-failures.ts).
 */
export async function settleChargePaid(
  deps: ChargeLifecycleDeps,
  transactionId: string,
  paid: PaidAtRoute,
): Promise<Settled<ChargeTransactionState>> {
  if (!isExactCents(paid.amountCents)) {
    deps.log.error(
      { alert: 'unsettlable_payment', transactionId, paidCents: paid.amountCents },
      'alert: the route says a charge was paid an amount the engine cannot settle; the charge is not approved, an operator must settle it with the payer',
    );
    unsettlablePayments.inc();
    throw new CentsOutOfRange(`charge ${transactionId}: paid ${paid.amountCents}, not a whole positive number of centavos held exactly`);
  }
  let group = paidSettlements.get(deps.sql);
  if (!group) {
    const { sql, log } = deps;
    group = groupCommit({
      runOne: (charge) => settleOnePaid(sql, charge),
      runBatch: (charges) => settleManyPaid(sql, charges),
      maxBatch: 64,
      onBatchFailure: (err, size) => log.warn({ err, size }, 'a batch of charge settlements failed; settling them one by one'),
    });
    paidSettlements.set(sql, group);
  }
  return settledCharge(await group.run({ transactionId, paid }));
}

/** What the payer's institution told the route, without empty fields (they must not erase the charge's payer). */
function payerAtRoute(paid: PaidAtRoute): Partial<StoredPayer> {
  return Object.fromEntries(Object.entries(paid.payer).filter(([, value]) => typeof value === 'string' && value !== ''));
}

export async function settleChargeCancelled(
  deps: ChargeLifecycleDeps,
  transactionId: string,
  expired: boolean,
): Promise<Settled<ChargeTransactionState>> {
  return settledCharge(
    await settleOnce(deps.sql, transactionId, (tx) => tx`status = 'cancelled', expired = ${expired}, processing_state = 'completed'`),
  );
}

/** The route refused the charge for good: `failed`, nothing posted. */
export async function settleChargeFailed(deps: ChargeLifecycleDeps, transactionId: string): Promise<Settled<ChargeTransactionState>> {
  return settledCharge(await settleOnce(deps.sql, transactionId, (tx) => tx`status = 'failed', processing_state = 'completed'`));
}
