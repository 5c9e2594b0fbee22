// The one place where a charge or a transfer is accepted or refused: the workflow's accept step
// calls `accept` against the state of the account at that moment, so a request that waited (a 202
// while the worker was down) and every repetition of its key learn the same decision.
import { accountFromRow, type AccountRow } from '../accounts/repository.js';
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import { accountUnavailable, kycRequired, RecordedRefusal, Refusal as DomainRefusal } from '../domain/refusal.js';
import { refusalStatus } from '../http/refusal-status.js';
import type { Refusal } from '../../workflows/transaction.contract.js';

export type { Refusal };

/** The account's own state that any money movement needs: active and identity verified. */
export function checkAccountState(account: Pick<Account, 'status' | 'kycStatus'>): void {
  if (account.status !== 'active') throw accountUnavailable();
  if (account.kycStatus !== 'approved') throw kycRequired();
}

/**
 * The refusal as the workflow records it. The contract's `Refusal` is the answer as decided, HTTP status
 * included: committed histories and runs in flight hold it that way, and the edge answers a recorded
 * refusal as recorded (old runs' `invalid_request` may be a 423: the code alone cannot tell). So the
 * status is stamped here, from the edge's one table: the only status the core handles, and as data.
 */
export const refusalOf = (refusal: DomainRefusal): Refusal => ({ status: refusalStatus(refusal), code: refusal.code, message: refusal.message });

/** A recorded refusal, thrown for the edge to answer. */
export const recordedRefusal = (refusal: Refusal): RecordedRefusal => new RecordedRefusal(refusal);

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
