// An operator resolves an open item (books.md): `credit` moves the money it holds in suspense to an
// account as a new `deposit` transaction (direction in, method pix, approved, `transaction.approved`
// sent, listed and fetched like any other); `refund` returns it to the payer by a devolução (natureza
// ORIGINAL) from suspense, made by its own workflow (suspense-refund.contract.ts); `dismiss` closes an
// item that holds no money. An item is resolved once, in one PostgreSQL transaction holding its row:
// the same resolution again answers the item as it is, another is a conflict. A devolução from
// suspense the route did not make leaves the item open with its money held: it can still be credited,
// not refunded again.
import { createHash } from 'node:crypto';
import type { TxSql } from '../db/database.js';
import { operationRefused } from '../domain/refusal.js';
import { suspenseAccount } from '../ledger/accounts.js';
import { countStatusReached } from '../metrics/transactions.js';
import type { RefundRoute } from '../pix-routes/refund-route.js';
import { RouteRefused } from '../pix-routes/types.js';
import type { Deps } from '../runtime/deps.js';
import { recordDeposit } from '../transactions/deposit.js';
import { dispatchEvent } from '../webhooks/dispatch.js';
import { toItemRow, type ItemRow, type RawItemRow, type Resolution } from './repository.js';

export type ResolutionRequest = { action: 'credit'; accountId: string } | { action: 'refund' } | { action: 'dismiss'; note: string };

/** Why an item cannot take a resolution: the edge answers 404 or 409. */
export class ResolutionConflict extends Error {
  override readonly name = 'ResolutionConflict';
  constructor(
    readonly reason: 'not_found' | 'account_not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

/** The deposit a credit makes: one per item. */
export const depositIdOf = (itemId: string): string =>
  `txn_${createHash('sha256').update(`deposit\n${itemId}`).digest('hex').slice(0, 24)}`;

const sameResolution = (resolution: Resolution, request: ResolutionRequest): boolean => {
  if (resolution.action !== request.action) return false;
  if (resolution.action === 'credit' && request.action === 'credit') return resolution.accountId === request.accountId;
  if (resolution.action === 'dismiss' && request.action === 'dismiss') return resolution.note === request.note;
  return true;
};

const PENDING_REFUND: Resolution = { action: 'refund', refund: { status: 'pending', reason: null } };

/** What the resolution changed, for the caller to act on after the commit. */
export interface Resolved {
  item: ItemRow;
  /** Events the resolution recorded (a credit's transaction.approved). */
  eventIds: string[];
  /** The item's devolução from suspense is pending: its workflow must be running. */
  refundPending: boolean;
}

export interface ResolveDeps extends Pick<Deps, 'sql'> {
  /** The route of that name that returns a received Pix; RouteRefused when it cannot. */
  refundRoute(name: string): RefundRoute;
}

/** A refund from suspense needs a route that returns a received Pix: refused (422) before anything changes. */
function checkRefundable(deps: ResolveDeps, route: string): void {
  try {
    deps.refundRoute(route);
  } catch (err) {
    if (err instanceof RouteRefused) throw operationRefused(`A rota ${route} não devolve Pix recebidos; resolva com credit`);
    throw err;
  }
}

/** Resolves the item once; the same resolution again answers it as it is. Throws ResolutionConflict or a Refusal. */
export async function resolveItem(deps: ResolveDeps, itemId: string, request: ResolutionRequest): Promise<Resolved> {
  let deposited: { type: string; status: string } | null = null;
  const resolved = await deps.sql.begin(async (tx): Promise<Resolved> => {
    const [raw] = await tx<RawItemRow[]>`select * from reconciliation_items where id = ${itemId} for update`;
    if (!raw) throw new ResolutionConflict('not_found', 'Item de conciliação não encontrado');
    const item = toItemRow(raw);
    const answer = (row: ItemRow, eventIds: string[] = []): Resolved => ({
      item: row,
      eventIds,
      refundPending: row.resolution?.action === 'refund' && row.resolution.refund.status === 'pending',
    });
    if (item.status === 'resolved') {
      if (sameResolution(item.resolution!, request)) return answer(item);
      throw new ResolutionConflict('conflict', `O item já foi resolvido (${item.resolution!.action})`);
    }
    if (item.status !== 'open') throw new ResolutionConflict('conflict', 'O item foi corrigido pela conciliação: não há o que resolver');
    if (request.action === 'dismiss') {
      if (item.heldCents > 0) {
        throw new ResolutionConflict('conflict', 'O item retém dinheiro em suspense: resolva-o com credit ou refund');
      }
      return answer(await markResolved(tx, item, { action: 'dismiss', note: request.note }));
    }
    if (item.heldCents === 0) throw new ResolutionConflict('conflict', 'O item não retém dinheiro: só pode ser resolvido com dismiss');
    if (request.action === 'refund' && item.resolution?.action === 'refund') {
      // The devolução is asked by the item's id, which the route already holds as not made.
      const reason = item.resolution.refund.reason ?? 'não realizada';
      throw new ResolutionConflict('conflict', `A devolução ao pagador não foi realizada (${reason}): resolva o item com credit`);
    }
    if (request.action === 'refund') {
      checkRefundable(deps, item.route);
      return answer(await markResolved(tx, item, PENDING_REFUND));
    }
    const deposit = await credit(tx, item, request.accountId);
    deposited = deposit.row;
    const resolution: Resolution = { action: 'credit', accountId: request.accountId, transactionId: deposit.row.id };
    return answer(await markResolved(tx, item, resolution, 0), [deposit.eventId]);
  });
  if (deposited) countStatusReached(deposited);
  return resolved;
}

async function markResolved(tx: TxSql, item: ItemRow, resolution: Resolution, heldCents = item.heldCents): Promise<ItemRow> {
  const [raw] = await tx<RawItemRow[]>`
    update reconciliation_items
    set status = 'resolved', resolution = ${tx.json(resolution as never)}, resolved_at = now(), held_amount = ${heldCents}
    where id = ${item.id}
    returning *`;
  return toItemRow(raw!);
}

/** The money the item holds goes from suspense to the account's available balance, as a new approved deposit. */
async function credit(tx: TxSql, item: ItemRow, accountId: string) {
  const [account] = await tx<{ id: string }[]>`select id from accounts where id = ${accountId}`;
  if (!account) throw new ResolutionConflict('account_not_found', 'Conta não encontrada');
  const id = depositIdOf(item.id);
  return recordDeposit(tx, {
    id,
    accountId,
    externalId: item.id,
    method: 'pix',
    route: item.route,
    amountCents: item.heldCents,
    description: `Pix recebido sem cobrança, creditado pela conciliação (${item.id})`,
    payer: { name: item.payer?.name ?? '', document: item.payer?.document ?? '' },
    endToEndId: item.endToEndId,
    from: suspenseAccount(item.route),
    postingDescription: `Depósito ${id}: Pix ${item.endToEndId ?? ''} em suspense creditado à conta (${item.id})`,
  });
}

/** After the commit: the credit's events go out. */
export async function dispatchResolution(deps: Deps, resolved: Resolved): Promise<void> {
  for (const eventId of resolved.eventIds) await dispatchEvent(deps, eventId);
}
