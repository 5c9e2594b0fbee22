// The steps of a transfer's life that touch PostgreSQL or the route, each idempotent so that an
// activity retried by Temporal does its work once: accept (row + reservation in one PostgreSQL
// transaction), send, ask the route, and settle (status change, ledger posting and event in one
// PostgreSQL transaction).
import type { Sql } from '../db/database.js';
import { customerAccount, platformAccount } from '../ledger/accounts.js';
import type { Account } from '../accounts/account.js';
import { insufficientBalance, withdrawalInProgress, withdrawalsBlocked } from '../domain/refusal.js';
import { InsufficientFunds, post, type Entry } from '../ledger/post.js';
import { countStatusReached } from '../metrics/transactions.js';
import { routeIsRemote } from '../pix-routes/registry.js';
import type { TransferRoute, TransferState } from '../pix-routes/types.js';
import { toTransactionRow, type RawTransactionRow, type TransactionRow } from '../transactions/row.js';
import { findTransactionByKey } from '../transactions/repository.js';
import { loadTransactionRow, settleOnce, transactionState, type Settlement } from '../transactions/settle.js';
import { accept, checkAccountState, rulesUnlessKept } from '../transactions/acceptance.js';
import type { Persisted, Settled } from '../../contracts/transaction.contract.js';
import type { PersistedTransfer, RouteTransferState, TransferDraft } from './contract.js';
import { transferTerms, type TransferTerms } from './terms.js';

export interface TransferLifecycleDeps {
  sql: Sql;
  /** A transfer's `expiresAt` is its creation plus this (the charge TTL, the spec's "creation time plus 15 minutes"). */
  expirySeconds: number;
  /** The route of that name; RouteRefused when there is none. */
  transferRoute(name: string): TransferRoute;
}

const settledTransfer = ({ row, eventIds }: Settlement): Settled => ({ transaction: transactionState(row), eventIds });

/** A draft of a run whose API priced it already: its amounts stand, the account's state is checked again. */
function legacyTerms(draft: TransferDraft, account: Account): TransferTerms {
  if (account.withdrawalsBlocked) throw withdrawalsBlocked();
  return draft;
}

/**
 * The accept step, in one PostgreSQL transaction: the key's existing transfer as it is, or the
 * account's rules applied now (state, withdrawals, minimum, fee, destination) and the pending `out_`
 * row inserted with the reservation of the debited amount (available → reserved). The
 * one-pending-transfer index and a balance that cannot go negative refuse it with nothing kept.
 */
export async function persistTransfer(deps: TransferLifecycleDeps, draft: TransferDraft): Promise<Persisted> {
  return (await persistTransferRow(deps, draft)).persisted;
}

/** persistTransfer, with the key's row when there is one (the hand-over reads its amount from it). */
async function persistTransferRow(
  deps: TransferLifecycleDeps,
  draft: TransferDraft,
): Promise<{ persisted: Persisted; row?: TransactionRow }> {
  const decided = await accept(deps.sql, draft.accountId, async (tx, account) => {
    const ruled = await rulesUnlessKept(tx, draft.accountId, draft.externalId, () => {
      checkAccountState(account);
      return draft.asked ? transferTerms(tx, account, draft.asked) : legacyTerms(draft, account);
    });
    if ('kept' in ruled) return { row: ruled.kept, created: false };
    const { terms } = ruled;
    const [inserted] = await tx<RawTransactionRow[]>`
      insert into transactions (
        id, account_id, external_id, direction, type, method, status, processing_state, acquirer,
        amount, fee, net_amount, debited_amount, recipient_amount, description, payer, counterparty, fingerprint, api_key_id, expires_at, metadata, pays_transaction_id)
      values (
        ${draft.transactionId}, ${draft.accountId}, ${draft.externalId}, 'out', 'withdrawal', ${terms.method}, 'pending', 'monitoring', ${draft.route},
        ${terms.amountCents}, ${terms.feeCents}, ${terms.netAmountCents}, ${terms.debitedAmountCents}, ${terms.recipientAmountCents},
        ${draft.description}, ${tx.json(draft.payer)}, ${tx.json(terms.counterparty as never)}, ${draft.fingerprint}, ${draft.apiKeyId},
        now() + make_interval(secs => ${deps.expirySeconds}), ${tx.json(draft.metadata ?? {})}, ${terms.paysTransactionId ?? null})
      on conflict do nothing
      returning *`;
    if (!inserted) {
      // The key's operation is persisted (a retried step, a race, a charge of the key: return it) or
      // another transfer of the account is pending.
      const raced = await findTransactionByKey(tx, draft.accountId, draft.externalId);
      if (raced) return { row: raced, created: false };
      throw withdrawalInProgress();
    }
    try {
      await post(tx, {
        key: `transfer:${draft.transactionId}:reserve`,
        transactionId: draft.transactionId,
        description: 'Transferência Pix: reserva do valor debitado',
        entries: [
          { account: customerAccount(draft.accountId, 'available'), amount: -terms.debitedAmountCents },
          { account: customerAccount(draft.accountId, 'reserved'), amount: terms.debitedAmountCents },
        ],
      });
    } catch (err) {
      if (err instanceof InsufficientFunds) throw insufficientBalance();
      throw err;
    }
    return { row: toTransactionRow(inserted), created: true };
  });
  if ('refused' in decided) return { persisted: { outcome: 'refused', refusal: decided.refused } };
  const { row, created } = decided.accepted;
  if (created) countStatusReached(row);
  return {
    persisted: {
      outcome: 'persisted',
      transaction: transactionState(row),
      fingerprint: row.fingerprint,
      created,
      // A route name no route answers to is refused later, at send.
      remote: routeIsRemote(() => deps.transferRoute(row.route)),
    },
    row,
  };
}

/** The route's answer about a transfer as it travels to the workflow (dates as ISO strings). */
function travellingTransferState(state: TransferState): RouteTransferState {
  if (state.status === 'approved') return { status: 'approved', settledAt: state.settledAt.toISOString() };
  if (state.status === 'failed') return { status: 'failed', reason: state.reason };
  return { status: 'pending' };
}

/** Writes the route's reference of a transfer that has none yet. */
export async function rememberRouteRef(sql: Sql, transactionId: string, routeRef: string): Promise<void> {
  await sql`update transactions set processor_ref = ${routeRef}, updated_at = now()
            where id = ${transactionId} and processor_ref is null`;
}

function handOver(deps: TransferLifecycleDeps, draft: TransferDraft, row: TransactionRow): Promise<TransferState> {
  return deps.transferRoute(draft.route).sendTransfer({
    transactionId: draft.transactionId,
    amountCents: row.recipientAmountCents!,
    destination: draft.destination,
    description: draft.description,
    payer: { name: draft.payer.name, document: draft.payer.document },
  });
}

/** Sends the accepted transfer through the account's route (idempotent by transaction id at the route). */
export async function sendTransferAtRoute(deps: TransferLifecycleDeps, draft: TransferDraft): Promise<RouteTransferState> {
  const state = await handOver(deps, draft, await loadTransactionRow(deps.sql, draft.transactionId));
  await rememberRouteRef(deps.sql, draft.transactionId, state.routeRef);
  return travellingTransferState(state);
}

export async function transferStateAtRoute(deps: TransferLifecycleDeps, transactionId: string): Promise<RouteTransferState> {
  const row = await loadTransactionRow(deps.sql, transactionId);
  return travellingTransferState(await deps.transferRoute(row.route).transferStatus(transactionId));
}

/**
 * The one-step accept (TRANSFER_LOCAL_STEPS): persists the transfer and, on a route in this process
 * (the simulator), hands a new pending transfer over to it. A send that fails is left to the
 * workflow's own send step, which retries it or fails the transfer on a refusal. `refWithSettlement`:
 * a final answer's route reference is not written but answered (`routeRef`), for the settlement that
 * follows in the same step to write (one row version and one statement fewer).
 */
export async function persistAndSendTransfer(
  deps: TransferLifecycleDeps,
  draft: TransferDraft,
  options: { refWithSettlement?: boolean } = {},
): Promise<PersistedTransfer & { routeRef?: string }> {
  const { persisted, row } = await persistTransferRow(deps, draft);
  if (persisted.outcome === 'refused' || persisted.remote || persisted.transaction.id !== draft.transactionId) return persisted;
  if (persisted.transaction.status !== 'pending') return persisted;
  try {
    const state = await handOver(deps, draft, row!);
    const deferred = options.refWithSettlement === true && state.status !== 'pending';
    if (!deferred) await rememberRouteRef(deps.sql, draft.transactionId, state.routeRef);
    return { ...persisted, sent: travellingTransferState(state), ...(deferred ? { routeRef: state.routeRef } : {}) };
  } catch {
    return persisted;
  }
}

/** Approved: the reservation leaves the account; the recipient's part goes out through Pix clearing, the fee to revenue. */
function sentTransferEntries(row: TransactionRow): Entry[] {
  return [
    { account: customerAccount(row.accountId, 'reserved'), amount: -row.debitedAmountCents! },
    { account: platformAccount('pix_clearing', row.id), amount: row.recipientAmountCents! },
    { account: platformAccount('fee_revenue', row.id), amount: row.feeCents },
  ];
}

export async function settleTransferApproved(
  deps: Pick<TransferLifecycleDeps, 'sql'>,
  transactionId: string,
  settledAt: string,
  routeRef?: string,
): Promise<Settled> {
  const settlement = await settleOnce(
    deps.sql,
    transactionId,
    (tx) => tx`
      status = 'approved', processing_state = 'completed', approved_at = ${new Date(settledAt)},
      processor_ref = coalesce(processor_ref, ${routeRef ?? null})`,
    (row) => ({ key: `transfer:${row.id}:settle`, description: 'Transferência Pix enviada', entries: sentTransferEntries(row) }),
  );
  return settledTransfer(settlement);
}

/** Failed: the reservation goes back to the available balance; no fee is charged. */
export async function settleTransferFailed(
  deps: Pick<TransferLifecycleDeps, 'sql'>,
  transactionId: string,
  reason: string,
  routeRef?: string,
): Promise<Settled> {
  const settlement = await settleOnce(
    deps.sql,
    transactionId,
    (tx) => tx`
      status = 'failed', processing_state = 'completed', processor_ref = coalesce(processor_ref, ${routeRef ?? null}),
      counterparty = coalesce(counterparty, '{}'::jsonb) || ${tx.json({ failureReason: reason })}`,
    (row) => ({
      key: `transfer:${row.id}:release`,
      description: 'Transferência Pix falhou: reserva devolvida',
      entries: [
        { account: customerAccount(row.accountId, 'reserved'), amount: -row.debitedAmountCents! },
        { account: customerAccount(row.accountId, 'available'), amount: row.debitedAmountCents! },
      ],
    }),
  );
  return settledTransfer(settlement);
}
