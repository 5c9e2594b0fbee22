// Suspense (books.md): a platform ledger account per route, platform:suspense:<route>, holds money the
// PSP received that belongs to no charge, so that the ledger keeps equal to the PSP's side. An item
// holds what it put there (held_amount) until a resolution moves it out; the ledger check proves that
// each route's suspense equals what its items hold. Every move is a posting keyed by the item.
import type { TxSql } from '../db/database.js';
import { platformAccount, suspenseAccount } from '../ledger/accounts.js';
import { post } from '../ledger/post.js';
import type { ItemRow } from './repository.js';

/** The Pix the PSP received goes from Pix clearing (where a charge's payment would have gone) to suspense. */
export function holdInSuspense(tx: TxSql, item: ItemRow, amountCents: number): Promise<boolean> {
  return post(tx, {
    key: `reconciliation:${item.id}:hold`,
    transactionId: item.transactionId,
    description: `Conciliação ${item.id}: Pix recebido sem cobrança que o pague (${item.kind}) em suspense`,
    entries: [
      { account: platformAccount('pix_clearing', item.endToEndId ?? item.id), amount: -amountCents },
      { account: suspenseAccount(item.route), amount: amountCents },
    ],
  });
}
