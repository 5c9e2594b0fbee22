// Ledger invariants for integration tests: call after every money-moving scenario.
import { expect } from 'vitest';
import { connect } from '../../src/db/database.js';
import { checkLedger } from '../../src/ledger/check.js';

export async function expectLedgerConsistent(databaseUrl: string): Promise<void> {
  const sql = connect(databaseUrl, { max: 1 });
  try {
    expect(await checkLedger(sql)).toEqual([]);
  } finally {
    await sql.end({ timeout: 5 });
  }
}
