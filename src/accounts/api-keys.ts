// API keys: `pix_live_` + 32 random bytes in base64url. Only the hex SHA-256 of the whole key is
// stored (it is also the legacy webhook signing key); the key itself is shown once, at creation.
import { createHash, randomBytes } from 'node:crypto';
import type { Permission } from './permissions.js';
import type { Sql } from '../db/database.js';
import type { Account } from './account.js';
import { newId } from './ids.js';
import { accountFromRow, type AccountRow } from './repository.js';

export const API_KEY_PREFIX = 'pix_live_';
const SECRET_BYTES = 32;
/** 32 bytes are 43 base64url characters (no padding). */
const API_KEY_SHAPE = /^pix_live_[A-Za-z0-9_-]{43}$/;
/** What operators see of a key: the live prefix and the first 4 characters of the secret. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

export interface ApiKeyRecord {
  id: string; // key_…
  accountId: string;
  prefix: string;
  permissions: Permission[];
  allowedIps: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  key_hash: string;
  key_prefix: string;
  permissions: Permission[];
  allowed_ips: string[];
  created_at: Date;
  revoked_at: Date | null;
}

function keyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    prefix: row.key_prefix,
    permissions: row.permissions,
    allowedIps: row.allowed_ips,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

export function isWellFormedApiKey(key: string): boolean {
  return API_KEY_SHAPE.test(key);
}

/** Hex SHA-256 of the whole key: the only form in which a key is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Creates a key for the account; null when the account does not exist. `key` is the only copy of the secret. */
export async function createApiKey(
  sql: Sql,
  accountId: string,
  grant: { permissions: Permission[]; allowedIps: string[] },
): Promise<{ record: ApiKeyRecord; key: string } | null> {
  const key = generateApiKey();
  const [row] = await sql<ApiKeyRow[]>`
    insert into api_keys (id, account_id, key_hash, key_prefix, permissions, allowed_ips)
    select ${newId('key')}, id, ${hashApiKey(key)}, ${key.slice(0, DISPLAY_PREFIX_LENGTH)}, ${grant.permissions}, ${grant.allowedIps}
    from accounts where id = ${accountId}
    returning *`;
  return row ? { record: keyFromRow(row), key } : null;
}

/** Revokes the key (a second revocation keeps the first time); null when the key does not exist. */
export async function revokeApiKey(sql: Sql, id: string): Promise<ApiKeyRecord | null> {
  const [row] = await sql<ApiKeyRow[]>`update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ${id} returning *`;
  return row ? keyFromRow(row) : null;
}

export async function listApiKeys(sql: Sql, accountId: string): Promise<ApiKeyRecord[]> {
  const rows = await sql<ApiKeyRow[]>`select * from api_keys where account_id = ${accountId} order by created_at, id`;
  return rows.map(keyFromRow);
}

export interface KeyHolder {
  key: ApiKeyRecord & { hash: string };
  account: Account;
}

/**
 * The key with this hash and its account, read fresh from the database on every call (no cache),
 * so a revocation or a blocked account takes effect on the very next request of any process.
 * Revoked keys are returned too: the caller decides, with the same work done either way.
 */
export async function findKeyHolder(sql: Sql, keyHash: string): Promise<KeyHolder | null> {
  const [row] = await sql<
    (AccountRow & {
      key_id: string;
      key_hash: string;
      key_prefix: string;
      permissions: Permission[];
      allowed_ips: string[];
      key_created_at: Date;
      revoked_at: Date | null;
    })[]
  >`
    select a.*, k.id as key_id, k.key_hash, k.key_prefix, k.permissions, k.allowed_ips, k.created_at as key_created_at, k.revoked_at
    from api_keys k join accounts a on a.id = k.account_id
    where k.key_hash = ${keyHash}`;
  if (!row) return null;
  return {
    key: {
      id: row.key_id,
      accountId: row.id,
      prefix: row.key_prefix,
      hash: row.key_hash,
      permissions: row.permissions,
      allowedIps: row.allowed_ips,
      createdAt: row.key_created_at,
      revokedAt: row.revoked_at,
    },
    account: accountFromRow(row),
  };
}
