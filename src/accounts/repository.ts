// Accounts in PostgreSQL: create, read and change them; rows become `Account` (centavos, percent) here.
import type { Sql } from '../db/database.js';
import type { Account, FeeRule } from './account.js';
import { newId } from './ids.js';

export interface FeesPatch {
  charge?: Partial<FeeRule>;
  transfer?: Partial<FeeRule>;
}

export type LimitsPatch = Partial<Account['limits']>;

/** Settings an operator may change; every field optional, centavos and percent. */
export interface AccountPatch {
  status?: Account['status'];
  kycStatus?: Account['kycStatus'];
  withdrawalsBlocked?: boolean;
  pixReceivingEnabled?: boolean;
  fees?: FeesPatch;
  limits?: LimitsPatch;
  route?: string;
}

export interface NewAccount extends AccountPatch {
  name: string;
  /** Normalized (no mask) and already checked. */
  document: string;
  email: string;
  /** The operator allows another account with the same document or e-mail. */
  allowDuplicate?: boolean;
}

/** The check constraint (migration 010) that keeps chargeMin ≤ chargeMax. */
export const CHARGE_LIMITS_CONSTRAINT = 'accounts_charge_limits_order';

/** The unique indexes (migration 071) that keep one account per document and per e-mail, by the field they guard. */
export const IDENTITY_CONSTRAINTS: Readonly<Record<string, 'document' | 'email'>> = {
  accounts_document_unique: 'document',
  accounts_email_unique: 'email',
};

export interface AccountRow {
  id: string;
  name: string;
  document: string;
  email: string;
  kyc_status: Account['kycStatus'];
  status: Account['status'];
  withdrawals_blocked: boolean;
  pix_receiving_enabled: boolean;
  fee_charge_fixed: bigint;
  fee_charge_percent: string;
  fee_transfer_fixed: bigint;
  fee_transfer_percent: string;
  charge_min: bigint;
  charge_max: bigint;
  transfer_min: bigint;
  route: string;
  created_at: Date;
  updated_at: Date;
}

export function accountFromRow(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    document: row.document,
    email: row.email,
    kycStatus: row.kyc_status,
    status: row.status,
    withdrawalsBlocked: row.withdrawals_blocked,
    pixReceivingEnabled: row.pix_receiving_enabled,
    fees: {
      charge: { fixedCents: Number(row.fee_charge_fixed), percent: Number(row.fee_charge_percent) },
      transfer: { fixedCents: Number(row.fee_transfer_fixed), percent: Number(row.fee_transfer_percent) },
    },
    limits: { chargeMinCents: Number(row.charge_min), chargeMaxCents: Number(row.charge_max), transferMinCents: Number(row.transfer_min) },
    route: row.route,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a patch sets; fields left out keep their value (or the column default on insert). */
function settingsColumns(patch: AccountPatch): Record<string, string | number | boolean> {
  const columns: Record<string, string | number | boolean | undefined> = {
    status: patch.status,
    kyc_status: patch.kycStatus,
    withdrawals_blocked: patch.withdrawalsBlocked,
    pix_receiving_enabled: patch.pixReceivingEnabled,
    fee_charge_fixed: patch.fees?.charge?.fixedCents,
    fee_charge_percent: patch.fees?.charge?.percent,
    fee_transfer_fixed: patch.fees?.transfer?.fixedCents,
    fee_transfer_percent: patch.fees?.transfer?.percent,
    charge_min: patch.limits?.chargeMinCents,
    charge_max: patch.limits?.chargeMaxCents,
    transfer_min: patch.limits?.transferMinCents,
    route: patch.route,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined)) as Record<
    string,
    string | number | boolean
  >;
}

export async function createAccount(sql: Sql, input: NewAccount): Promise<Account> {
  const values = {
    id: newId('acc'),
    name: input.name,
    document: input.document,
    email: input.email,
    duplicate_allowed: input.allowDuplicate ?? false,
    ...settingsColumns(input),
  };
  const [row] = await sql<AccountRow[]>`insert into accounts ${sql(values)} returning *`;
  return accountFromRow(row!);
}

/** The id of the account that holds a document or an e-mail, compared as the unique indexes of migration 071 compare them. */
export async function accountHolding(sql: Sql, field: 'document' | 'email', value: string): Promise<string | null> {
  const [row] =
    field === 'document'
      ? await sql<{ id: string }[]>`
          select id from accounts
          where upper(regexp_replace(document, '[^0-9A-Za-z]', '', 'g')) = upper(regexp_replace(${value}, '[^0-9A-Za-z]', '', 'g')) and not duplicate_allowed`
      : await sql<{ id: string }[]>`select id from accounts where lower(email) = lower(${value}) and not duplicate_allowed`;
  return row?.id ?? null;
}

export async function accountExists(sql: Sql, id: string): Promise<boolean> {
  const [row] = await sql`select id from accounts where id = ${id}`;
  return row !== undefined;
}

export async function getAccount(sql: Sql, id: string): Promise<Account | null> {
  const [row] = await sql<AccountRow[]>`select * from accounts where id = ${id}`;
  return row ? accountFromRow(row) : null;
}

/** Applies the patch and returns the account as it is now, or null when the account does not exist. */
export async function patchAccount(sql: Sql, id: string, patch: AccountPatch): Promise<Account | null> {
  const columns = settingsColumns(patch);
  if (Object.keys(columns).length === 0) return getAccount(sql, id);
  const [row] = await sql<AccountRow[]>`update accounts set ${sql(columns)}, updated_at = now() where id = ${id} returning *`;
  return row ? accountFromRow(row) : null;
}
