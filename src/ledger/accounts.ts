// Ledger account ids. Customers have one row per balance kind (`acc_…:available`); the platform's
// accounts are spread over 16 shards so that no single row is locked by every posting, but for
// suspense: one per Pix route (`platform:suspense:<route>`), which only reconciliation moves.
import { createHash } from 'node:crypto';

export const CUSTOMER_KINDS = ['available', 'reserved', 'retained'] as const;
export const PLATFORM_KINDS = ['fee_revenue', 'pix_clearing', 'suspense'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];
export type PlatformKind = (typeof PLATFORM_KINDS)[number];
type ShardedKind = Exclude<PlatformKind, 'suspense'>;
export type LedgerKind = CustomerKind | PlatformKind;

export const PLATFORM_SHARDS = 16;

export function customerAccount(accountId: string, kind: CustomerKind): string {
  return `${accountId}:${kind}`;
}

/** The platform account of `kind` that postings about `shardSeed` (e.g. a transaction id) use; stable per seed. */
export function platformAccount(kind: ShardedKind, shardSeed: string): string {
  const shard = createHash('sha256').update(shardSeed).digest().readUInt32BE(0) % PLATFORM_SHARDS;
  return `platform:${kind}:${String(shard).padStart(2, '0')}`;
}

/** The route's suspense: money its PSP received that belongs to no charge (books.md, reconciliation). */
export function suspenseAccount(route: string): string {
  return `platform:suspense:${route}`;
}

export interface LedgerAccountRef {
  id: string;
  ownerId: string | null;
  kind: LedgerKind;
}

const PLATFORM_ID = /^platform:(fee_revenue|pix_clearing):(\d{2})$/;
const SUSPENSE_ID = /^platform:suspense:[^:]+$/;
const CUSTOMER_ID = /^(.+):(available|reserved|retained)$/;

/** Reads a ledger account id back into its owner and kind; throws on an id no function above would produce. */
export function parseLedgerAccount(id: string): LedgerAccountRef {
  const platform = PLATFORM_ID.exec(id);
  if (platform && Number(platform[2]) < PLATFORM_SHARDS) return { id, ownerId: null, kind: platform[1] as PlatformKind };
  if (SUSPENSE_ID.test(id)) return { id, ownerId: null, kind: 'suspense' };
  const customer = CUSTOMER_ID.exec(id);
  if (customer && !id.startsWith('platform:')) return { id, ownerId: customer[1]!, kind: customer[2] as CustomerKind };
  throw new Error(`not a ledger account id: ${id}`);
}

export const isCustomerKind = (kind: LedgerKind): kind is CustomerKind => (CUSTOMER_KINDS as readonly string[]).includes(kind);
