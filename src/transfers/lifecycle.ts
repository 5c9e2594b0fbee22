// The steps of a transfer's life that touch PostgreSQL or the route, each idempotent so that an
// activity retried by Temporal does its work once: accept (row + reservation in one PostgreSQL
// transaction), send, ask the route, and settle (status change, ledger posting and event in one
// PostgreSQL transaction).
import type { Sql } from '../db/database.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import { InsufficientFunds, post, type Entry } from '../ledger/post.js';
import { RouteRefused, type TransferRoute, type TransferState } from '../processors/types.js';
import { toTransactionRow, type RawTransactionRow, type TransactionRow } from '../transactions/row.js';
import { serializeTransaction } from '../transactions/serialize.js';
import { loadTransactionRow, settleOnce, type Settled } from '../transactions/settle.js';
import type { PersistedTransfer, RouteTransferState, TransferDraft, TransferRefusal } from './draft.js';

export interface TransferLifecycleDeps {
  sql: Sql;
  /** A transfer's `expiresAt` is its creation plus this (the charge TTL, the spec's "creation time plus 15 minutes"). */
  expirySeconds: number;
  transferRoute(name: string): TransferRoute;
}

/** Thrown inside the acceptance transaction to roll it back with the reason. */
class Refused extends Error {
  constructor(readonly refusal: TransferRefusal) {
    super(refusal);
  }
}

const persisted = (row: TransactionRow, created: boolean): PersistedTransfer => ({
  outcome: 'persisted',
  transaction: serializeTransaction(row),
  fingerprint: row.fingerprint,
  created,
});

/**
 * Accepts the transfer in one PostgreSQL transaction: the pending `out_` row and the reservation of
 * the debited amount (available → reserved). The one-pending-transfer index, the account's state
 * and a balance that cannot go negative refuse it with nothing changed. An existing row for the
 * same (account, key) is returned as is.
 */
export async function persistTransfer(deps: TransferLifecycleDeps, draft: TransferDraft): Promise<PersistedTransfer> {
  try {
    return await deps.sql.begin(async (tx) => {
      const [existing] = await tx<RawTransactionRow[]>`
        select * from transactions where account_id = ${draft.accountId} and external_id = ${draft.externalId}`;
      if (existing) return persisted(toTransactionRow(existing), false);
      const [account] = await tx<{ status: string; withdrawals_blocked: boolean }[]>`
        select status, withdrawals_blocked from accounts where id = ${draft.accountId} for share`;
      if (!account || account.status !== 'active') throw new Refused('ACCOUNT_UNAVAILABLE');
      if (account.withdrawals_blocked) throw new Refused('WITHDRAWALS_BLOCKED');
      const [inserted] = await tx<RawTransactionRow[]>`
        insert into transactions (
          id, account_id, external_id, direction, type, method, status, processing_state, acquirer,
          amount, fee, net_amount, debited_amount, recipient_amount, description, payer, counterparty, fingerprint, api_key_id, expires_at)
        values (
          ${draft.transactionId}, ${draft.accountId}, ${draft.externalId}, 'out', 'withdrawal', ${draft.method}, 'pending', 'monitoring', ${draft.route},
          ${draft.amountCents}, ${draft.feeCents}, ${draft.netAmountCents}, ${draft.debitedAmountCents}, ${draft.recipientAmountCents},
          ${draft.description}, ${tx.json(draft.payer)}, ${tx.json(draft.counterparty as never)}, ${draft.fingerprint}, ${draft.apiKeyId},
          now() + make_interval(secs => ${deps.expirySeconds}))
        on conflict do nothing
        returning *`;
      if (!inserted) {
        // Either the same key won a race (return it) or another transfer of the account is pending.
        const [raced] = await tx<RawTransactionRow[]>`
          select * from transactions where account_id = ${draft.accountId} and external_id = ${draft.externalId}`;
        if (raced) return persisted(toTransactionRow(raced), false);
        throw new Refused('WITHDRAWAL_IN_PROGRESS');
      }
      await post(tx, {
        key: `transfer:${draft.transactionId}:reserve`,
        transactionId: draft.transactionId,
        description: 'Transferência Pix: reserva do valor debitado',
        entries: [
          { account: customerAccount(draft.accountId, 'available'), amount: -draft.debitedAmountCents },
          { account: customerAccount(draft.accountId, 'reserved'), amount: draft.debitedAmountCents },
        ],
      });
      return persisted(toTransactionRow(inserted), true);
    });
  } catch (err) {
    if (err instanceof Refused) return { outcome: 'refused', refusal: err.refusal };
    if (err instanceof InsufficientFunds) return { outcome: 'refused', refusal: 'INSUFFICIENT_BALANCE' };
    throw err;
  }
}

function travelling(state: TransferState): RouteTransferState {
  if (state.status === 'approved') return { status: 'approved', settledAt: state.settledAt.toISOString() };
  if (state.status === 'failed') return { status: 'failed', reason: state.reason };
  return { status: 'pending' };
}

async function rememberProcessorRef(sql: Sql, transactionId: string, state: TransferState): Promise<void> {
  await sql`update transactions set processor_ref = ${state.processorRef}, updated_at = now()
            where id = ${transactionId} and processor_ref is null`;
}

function routeOf(deps: TransferLifecycleDeps, name: string): TransferRoute {
  try {
    return deps.transferRoute(name);
  } catch (err) {
    throw new RouteRefused(err instanceof Error ? err.message : String(err));
  }
}

/** Sends the transfer through the account's route (idempotent by transaction id at the route). */
export async function sendTransferAtRoute(deps: TransferLifecycleDeps, draft: TransferDraft): Promise<RouteTransferState> {
  const state = await routeOf(deps, draft.route).sendTransfer({
    transactionId: draft.transactionId,
    amountCents: draft.recipientAmountCents,
    destination: draft.destination,
    description: draft.description,
    payer: { name: draft.payer.name, document: draft.payer.document },
  });
  await rememberProcessorRef(deps.sql, draft.transactionId, state);
  return travelling(state);
}

export async function transferStateAtRoute(deps: TransferLifecycleDeps, transactionId: string): Promise<RouteTransferState> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  return travelling(await routeOf(deps, row.acquirer).transferStatus(transactionId));
}

/** Approved: the reservation leaves the account; the recipient's part goes out through Pix clearing, the fee to revenue. */
export function settlementEntries(row: TransactionRow): Entry[] {
  return [
    { account: customerAccount(row.accountId, 'reserved'), amount: -row.debitedAmountCents! },
    { account: platformAccount('pix_clearing', row.id), amount: row.recipientAmountCents! },
    { account: platformAccount('fee_revenue', row.id), amount: row.feeCents },
  ];
}

export function settleTransferApproved(deps: TransferLifecycleDeps, transactionId: string, settledAt: string): Promise<Settled> {
  return settleOnce(
    deps.sql,
    transactionId,
    (tx) => tx<RawTransactionRow[]>`
      update transactions set status = 'approved', processing_state = 'completed', approved_at = ${new Date(settledAt)}, updated_at = now()
      where id = ${transactionId}
      returning *`,
    (row) => ({ key: `transfer:${row.id}:settle`, description: 'Transferência Pix enviada', entries: settlementEntries(row) }),
  );
}

/** Failed: the reservation goes back to the available balance; no fee is charged. */
export function settleTransferFailed(deps: TransferLifecycleDeps, transactionId: string, reason: string): Promise<Settled> {
  return settleOnce(
    deps.sql,
    transactionId,
    (tx) => tx<RawTransactionRow[]>`
      update transactions
      set status = 'failed', processing_state = 'completed', updated_at = now(),
          counterparty = coalesce(counterparty, '{}'::jsonb) || ${tx.json({ failureReason: reason })}
      where id = ${transactionId}
      returning *`,
    (row) => ({
      key: `transfer:${row.id}:release`,
      description: 'Transferência Pix falhou: reserva devolvida',
      entries: [
        { account: customerAccount(row.accountId, 'reserved'), amount: -row.debitedAmountCents! },
        { account: customerAccount(row.accountId, 'available'), amount: row.debitedAmountCents! },
      ],
    }),
  );
}
