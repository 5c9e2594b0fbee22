// The steps of a refund's life that touch PostgreSQL or the route, each idempotent so that an activity
// retried by Temporal does its work once: accept (row, reservation and `refund.created` in one
// PostgreSQL transaction), send, ask the route, and settle (status, posting, the charge's
// refundedAmount and the events in one PostgreSQL transaction).
import type { Sql, TxSql } from '../db/database.js';
import { insufficientRefundBalance } from '../domain/refusal.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import { InsufficientFunds, post, type Entry } from '../ledger/post.js';
import { countRefundStatus } from './metrics.js';
import { countStatusReached } from '../metrics/transactions.js';
import type { RefundRoute, RefundState, RouteRefundRequest } from '../pix-routes/refund-route.js';
import { routeIsRemote } from '../pix-routes/registry.js';
import { accept } from '../transactions/acceptance.js';
import { recordTransactionEvent, transactionEventId } from '../transactions/events.js';
import { returnDepositIdOf, returnToInternalPayer } from '../returns/payer.js';
import { toTransactionRow, type RawTransactionRow } from '../transactions/row.js';
import type { Persisted, Settled, TransactionState } from '../../contracts/transaction.contract.js';
import type { RefundDraft, RouteRefundState } from './contract.js';
import { recordRefundEvent, refundEventId } from './events.js';
import { findRefund, findRefundByKey } from './repository.js';
import { toRefundRow, type RawRefundRow, type RefundRow } from './row.js';
import { refundableCharge, refundAmount } from './terms.js';

export interface RefundLifecycleDeps {
  sql: Sql;
  /** The route of that name; RouteRefused when there is none. */
  refundRoute(name: string): RefundRoute;
}

const refundState = (row: RefundRow): TransactionState => ({ id: row.id, status: row.status });

/**
 * The accept step, in one PostgreSQL transaction: the key's existing refund as it is, or the charge
 * judged now (terms.ts) and the pending `rfd_` row inserted with the reservation of its amount
 * (available → reserved) and `refund.created`. An available balance that does not cover it refuses it
 * with nothing kept.
 */
export async function persistRefund(deps: RefundLifecycleDeps, draft: RefundDraft): Promise<Persisted> {
  const decided = await accept(deps.sql, draft.accountId, async (tx) => {
    const existing = await findRefundByKey(tx, draft.accountId, draft.externalId);
    if (existing) return { row: existing, created: false };
    const charge = await refundableCharge(tx, draft.transactionId);
    const amountCents = refundAmount(draft.amountCents, charge.budget);
    const [inserted] = await tx<RawRefundRow[]>`
      insert into refunds (id, account_id, transaction_id, idempotency_key, fingerprint, route, amount, reason)
      values (${draft.refundId}, ${draft.accountId}, ${draft.transactionId}, ${draft.externalId}, ${draft.fingerprint}, ${charge.route},
              ${amountCents}, ${draft.reason})
      returning *`;
    const row = toRefundRow(inserted!);
    try {
      await post(tx, {
        key: `refund:${row.id}:reserve`,
        transactionId: row.transactionId,
        description: `Devolução ${row.id}: reserva do valor`,
        entries: [
          { account: customerAccount(row.accountId, 'available'), amount: -amountCents },
          { account: customerAccount(row.accountId, 'reserved'), amount: amountCents },
        ],
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw insufficientRefundBalance();
      throw err;
    }
    await recordRefundEvent(tx, row, 'created');
    return { row, created: true };
  });
  if ('refused' in decided) return { outcome: 'refused', refusal: decided.refused };
  const { row, created } = decided.accepted;
  if (created) countRefundStatus('pending');
  return {
    outcome: 'persisted',
    transaction: refundState(row),
    fingerprint: row.fingerprint,
    created,
    remote: routeIsRemote(() => deps.refundRoute(row.route)),
  };
}

function travellingRefundState(state: RefundState): RouteRefundState {
  if (state.status === 'approved') return { status: 'approved', settledAt: state.settledAt.toISOString() };
  if (state.status === 'failed') return { status: 'failed', reason: state.reason };
  return { status: 'pending' };
}

async function routeRequest(sql: Sql, refundId: string): Promise<{ row: RefundRow; request: RouteRefundRequest }> {
  const row = await findRefund(sql, refundId);
  if (!row) throw new Error(`refund ${refundId} not found`);
  const [charge] = await sql<
    { endToEndId: string | null }[]
  >`select end_to_end_id as "endToEndId" from transactions where id = ${row.transactionId}`;
  return { row, request: { refundId, endToEndId: charge!.endToEndId, amountCents: row.amountCents, description: row.reason } };
}

async function rememberRouteRef(sql: Sql, refundId: string, state: RefundState): Promise<void> {
  if (state.routeRef === null) return;
  await sql`update refunds set end_to_end_id = ${state.routeRef}, updated_at = now() where id = ${refundId} and end_to_end_id is null`;
}

/** Asks the charge's route for the devolução (idempotent by refund id at the route). */
export async function sendRefundAtRoute(deps: RefundLifecycleDeps, refundId: string): Promise<RouteRefundState> {
  const { row, request } = await routeRequest(deps.sql, refundId);
  const state = await deps.refundRoute(row.route).sendRefund(request);
  await rememberRouteRef(deps.sql, refundId, state);
  return travellingRefundState(state);
}

export async function refundStateAtRoute(deps: RefundLifecycleDeps, refundId: string): Promise<RouteRefundState> {
  const { row, request } = await routeRequest(deps.sql, refundId);
  const state = await deps.refundRoute(row.route).refundStatus(request);
  await rememberRouteRef(deps.sql, refundId, state);
  return travellingRefundState(state);
}

/**
 * Moves a pending refund to its final state and, in the same PostgreSQL transaction, posts `entries`,
 * runs `also` and records `refund.<status>`. A refund already final is answered as is with the events
 * its settlement recorded, so a retried activity dispatches the same events.
 */
async function settleRefundOnce(
  sql: Sql,
  refundId: string,
  change: { status: 'approved'; settledAt: Date } | { status: 'failed'; reason: string },
  entries: (row: RefundRow) => Entry[],
  also: (tx: TxSql, row: RefundRow) => Promise<string[]> = async () => [],
): Promise<Settled> {
  let refunded = false;
  let reached = false;
  const settled = await sql.begin(async (tx) => {
    const [raw] = await tx<RawRefundRow[]>`
      update refunds set status = ${change.status}, updated_at = now(),
        settled_at = ${change.status === 'approved' ? change.settledAt : new Date()},
        failure_reason = ${change.status === 'failed' ? change.reason : null}
      where id = ${refundId} and status = 'pending'
      returning *`;
    if (!raw) {
      const current = (await findRefund(tx, refundId))!;
      const events = await tx<{ id: string }[]>`
        select id from events where id = any(${[
          transactionEventId(current.transactionId, 'refunded'),
          refundEventId(refundId, current.status === 'failed' ? 'failed' : 'approved'),
          transactionEventId(returnDepositIdOf(refundId), 'approved'),
        ]}::text[])
        order by type like 'refund.%' desc, type = 'transaction.refunded' desc`;
      return { transaction: refundState(current), eventIds: current.status === 'pending' ? [] : events.map((e) => e.id) };
    }
    const row = toRefundRow(raw);
    reached = true;
    await post(tx, {
      key: `refund:${row.id}:${change.status === 'approved' ? 'settle' : 'release'}`,
      transactionId: row.transactionId,
      description: describe(row, change.status),
      entries: entries(row),
    });
    const eventId = await recordRefundEvent(tx, row, change.status);
    const chargeEvents = await also(tx, row);
    refunded = chargeEvents.includes(transactionEventId(row.transactionId, 'refunded'));
    return { transaction: refundState(row), eventIds: [eventId, ...chargeEvents] };
  });
  if (reached) countRefundStatus(change.status);
  if (refunded) countStatusReached({ type: 'payment', status: 'refunded' });
  return settled;
}

const describe = (row: RefundRow, status: 'approved' | 'failed') =>
  status === 'approved' ? `Devolução ${row.id}: enviada ao pagador` : `Devolução ${row.id} não realizada: reserva devolvida`;

/**
 * The charge records the refunded amount and becomes `refunded` once all it received went back (its
 * `transaction.refunded` then); a payer that is another account of this engine gets the money back.
 */
async function recordRefunded(tx: TxSql, refund: RefundRow): Promise<string[]> {
  const [raw] = await tx<RawTransactionRow[]>`
    update transactions
    set refunded_amount = refunded_amount + ${refund.amountCents},
        status = case when refunded_amount + ${refund.amountCents} >= coalesce(paid_amount, amount) then 'refunded' else status end,
        updated_at = now()
    where id = ${refund.transactionId}
    returning *`;
  const charge = toTransactionRow(raw!);
  const refunded = charge.status === 'refunded' ? [await recordTransactionEvent(tx, charge)] : [];
  return [...refunded, ...(await returnToInternalPayer(tx, charge, refund.id, refund.amountCents))];
}

/** Approved: the reservation goes out through Pix clearing to the payer; the charge records it. */
export function settleRefundApproved(deps: Pick<RefundLifecycleDeps, 'sql'>, refundId: string, settledAt: string): Promise<Settled> {
  return settleRefundOnce(
    deps.sql,
    refundId,
    { status: 'approved', settledAt: new Date(settledAt) },
    (row) => [
      { account: customerAccount(row.accountId, 'reserved'), amount: -row.amountCents },
      { account: platformAccount('pix_clearing', row.transactionId), amount: row.amountCents },
    ],
    recordRefunded,
  );
}

/** Failed: the reservation goes back to the available balance. */
export function settleRefundFailed(deps: Pick<RefundLifecycleDeps, 'sql'>, refundId: string, reason: string): Promise<Settled> {
  return settleRefundOnce(deps.sql, refundId, { status: 'failed', reason }, (row) => [
    { account: customerAccount(row.accountId, 'reserved'), amount: -row.amountCents },
    { account: customerAccount(row.accountId, 'available'), amount: row.amountCents },
  ]);
}
