// The one place where a charge or a transfer is accepted or refused: the workflow's accept step
// calls `accept` against the state of the account at that moment, so a request that waited (a 202
// while the worker was down) and every repetition of its key learn the same decision.
import { accountFromRow, type AccountRow } from '../accounts/repository.js';
import type { Account } from '../accounts/account.js';
import type { Sql, TxSql } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import type { Refusal } from '../../workflows/transaction.contract.js';

export type { Refusal };

export const accountUnavailable = () => new ApiError(403, 'account_unavailable', 'Conta bloqueada ou indisponível');
export const kycRequired = () => new ApiError(403, 'kyc_required', 'A verificação de identidade (KYC) da conta não está concluída');

/** The account's own state that any money movement needs: active and identity verified. */
export function checkAccountState(account: Pick<Account, 'status' | 'kycStatus'>): void {
  if (account.status !== 'active') throw accountUnavailable();
  if (account.kycStatus !== 'approved') throw kycRequired();
}

export const refusalOf = (err: ApiError): Refusal => ({ status: err.status, code: err.code, message: err.message });
export const refusalError = (refusal: Refusal): ApiError => new ApiError(refusal.status, refusal.code, refusal.message);

/**
 * Runs `decide` in one PostgreSQL transaction with the account row share-locked (an operator's
 * change waits for it, or it sees the change). An ApiError thrown by the rules becomes the refusal;
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
    if (err instanceof ApiError) return { refused: refusalOf(err) };
    throw err;
  }
}
