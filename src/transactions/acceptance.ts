// The one place where a charge or a transfer is accepted or refused: the workflow's accept step
// calls `accept` against the state of the account at that moment, so a request that waited (a 202
// while the worker was down) and every repetition of its key learn the same decision. The refusal
// travels through Temporal in the core's terms; `recordedRefusal` reads it back for the edge.
import { accountFromRow, type AccountRow } from '../accounts/repository.js';
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import { findTransactionByKey } from './repository.js';
import type { TransactionRow } from './row.js';
import { accountUnavailable, kycRequired, Refusal as DomainRefusal, type RefusalCode, type RefusalReason } from '../domain/refusal.js';
import type { Refusal } from '../../contracts/transaction.contract.js';

/** The account's own state that any money movement needs: active and identity verified. */
export function checkAccountState(account: Pick<Account, 'status' | 'kycStatus'>): void {
  if (account.status !== 'active') throw accountUnavailable();
  if (account.kycStatus !== 'approved') throw kycRequired();
}

/** The refusal as the workflow records it: the code, the message, and the reason and the field to blame when there are. */
export const refusalOf = (refusal: DomainRefusal): Refusal => {
  const { reason, param } = refusal.details;
  return {
    code: refusal.code,
    message: refusal.message,
    ...(reason === undefined ? {} : { reason }),
    ...(param === undefined ? {} : { param }),
  };
};

/**
 * A refusal an accept step recorded, thrown for the edge to answer. A refused run ends in the workflow
 * task that reads its accept step's answer, so only runs of the release now running answer one, in this
 * shape (docs/versioning.md, "Retired shapes").
 */
export function recordedRefusal({ code, message, reason, param }: Refusal): DomainRefusal {
  return new DomainRefusal(code as RefusalCode, message, {
    ...(reason === undefined ? {} : { reason: reason as RefusalReason }),
    ...(param === undefined ? {} : { param }),
  });
}

/**
 * Runs `decide` in one PostgreSQL transaction with the account row share-locked (an operator's
 * change waits for it, or it sees the change). A refusal thrown by the rules becomes the recorded one;
 * any other error propagates (the activity retries, or fails for good on a data error).
 */
export async function accept<T>(
  sql: Sql,
  accountId: string,
  decide: (tx: TxSql, account: Account) => Promise<T>,
): Promise<{ accepted: T } | { refused: Refusal }> {
  try {
    const accepted = (await sql.begin(async (tx) => {
      const [row] = await tx<AccountRow[]>`select * from accounts where id = ${accountId} for share`;
      if (!row) throw accountUnavailable();
      return decide(tx, accountFromRow(row));
    })) as T;
    return { accepted };
  } catch (err) {
    if (err instanceof DomainRefusal) return { refused: refusalOf(err) };
    throw err;
  }
}

/**
 * The account's rules for the key's new operation (`rules` throws their refusal), or the key's operation
 * when it is persisted already (a retried accept step) and the rules now refuse. Without a refusal the
 * key's row is not read here: the insert that follows finds it (on conflict) and reads it then.
 */
export async function rulesUnlessKept<T>(
  tx: TxSql,
  accountId: string,
  externalId: string,
  rules: () => T | Promise<T>,
): Promise<{ terms: T } | { kept: TransactionRow }> {
  try {
    return { terms: await rules() };
  } catch (err) {
    if (!(err instanceof DomainRefusal)) throw err;
    const kept = await findTransactionByKey(tx, accountId, externalId);
    if (kept) return { kept };
    throw err;
  }
}
