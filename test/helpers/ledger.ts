// Ledger invariants for integration tests (call after every money-moving scenario), and money put straight
// into the ledger for tests that talk to PostgreSQL directly.
import { expect } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { customerAccount, platformAccount } from '../../src/ledger/accounts.js';
import { checkLedger } from '../../src/ledger/check.js';
import { post } from '../../src/ledger/post.js';

export async function expectLedgerConsistent(databaseUrl: string): Promise<void> {
  const sql = connect(databaseUrl, { max: 1 });
  try {
    expect(await checkLedger(sql)).toEqual([]);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Credits a customer's available balance from Pix clearing, as an approved charge would; false when `key` was posted already. */
export function fundAvailable(sql: Sql, accountId: string, cents: number, key: string): Promise<boolean> {
  return sql.begin((tx) =>
    post(tx, {
      key,
      description: 'funding',
      entries: [
        { account: platformAccount('pix_clearing', key), amount: -cents },
        { account: customerAccount(accountId, 'available'), amount: cents },
      ],
    }),
  );
}
