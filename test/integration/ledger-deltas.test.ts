// Postings that do not wait on a locked balance row (migration 100_ledger_balance_deltas.sql): a credit
// to a row another transaction holds is kept as a delta, the next posting that takes the row moves it
// in, every reader counts it, and debits still never take a customer balance below zero.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { customerAccount, platformAccount } from '../../src/ledger/accounts.js';
import { lockedBalances, readBalance } from '../../src/ledger/balance.js';
import { checkLedger } from '../../src/ledger/check.js';
import { InsufficientFunds, post } from '../../src/ledger/post.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { migratedDatabase } from '../helpers/migrated-database.js';

let sql: Sql;
let url: string;
let seq = 0;
const uniqueAccount = () => `acc_deltatest${++seq}_${Date.now()}`;

/** A charge's settlement: Pix clearing pays the merchant and the platform's fee. */
const credit = (accountId: string, cents: number, key = `test:credit:${accountId}:${++seq}`) =>
  sql.begin((tx) =>
    post(tx, {
      key,
      description: 'credit',
      entries: [
        { account: platformAccount('pix_clearing', key), amount: -(cents + 10) },
        { account: platformAccount('fee_revenue', key), amount: 10 },
        { account: customerAccount(accountId, 'available'), amount: cents },
      ],
    }),
  );

/** A transfer's reservation: available → reserved, refused below zero. */
const reserve = (accountId: string, cents: number, key = `test:reserve:${accountId}:${++seq}`) =>
  sql.begin((tx) =>
    post(tx, {
      key,
      description: 'reserve',
      entries: [
        { account: customerAccount(accountId, 'available'), amount: -cents },
        { account: customerAccount(accountId, 'reserved'), amount: cents },
      ],
    }),
  );

const deltasOf = async (ledgerAccount: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from ledger_balance_deltas where ledger_account_id = ${ledgerAccount}`)[0]!.n;

/** Runs `work` while another transaction holds the row of `ledgerAccount`; releases it afterwards. */
async function whileLocked<T>(ledgerAccount: string, work: () => Promise<T>): Promise<T> {
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = sql.begin(async (tx) => {
    await lockedBalances(tx, [ledgerAccount]);
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await isLocked;
  try {
    return await work();
  } finally {
    release();
    await holder;
  }
}

beforeAll(async () => {
  ({ url, sql } = await migratedDatabase({ max: 30 }));
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe('a credit to a row another transaction holds', () => {
  it('commits without waiting, as a delta that readers count and the next posting moves in', async () => {
    const acc = uniqueAccount();
    const available = customerAccount(acc, 'available');
    await credit(acc, 1_000);
    await whileLocked(available, async () => {
      // Waiting on the held row would never end here: the holder is released only after this.
      expect(await credit(acc, 500)).toBe(true);
      expect(await deltasOf(available)).toBe(1);
      expect((await readBalance(sql, acc)).availableCents).toBe(1_500);
      expect(await checkLedger(sql)).toEqual([]);
    });
    // A debit of everything: it can only succeed if it moved the delta in first.
    expect(await reserve(acc, 1_500)).toBe(true);
    expect(await deltasOf(available)).toBe(0);
    expect(await readBalance(sql, acc)).toEqual({ availableCents: 0, reservedCents: 1_500, retainedCents: 0 });
    await expectLedgerConsistent(url);
  });

  it('posts once per key when identical credits race past a held row', async () => {
    const acc = uniqueAccount();
    const available = customerAccount(acc, 'available');
    await credit(acc, 100);
    const key = `test:same:${acc}`;
    const results = await whileLocked(available, () => Promise.all(Array.from({ length: 10 }, () => credit(acc, 700, key))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await deltasOf(available)).toBe(1);
    expect((await readBalance(sql, acc)).availableCents).toBe(800);
    await expectLedgerConsistent(url);
  });

  it('writes no delta for an account whose entries cancel out', async () => {
    const acc = uniqueAccount();
    const available = customerAccount(acc, 'available');
    await credit(acc, 100);
    const key = `test:cancel:${acc}`;
    const posted = await whileLocked(available, () =>
      sql.begin((tx) =>
        post(tx, {
          key,
          description: 'in and out',
          entries: [
            { account: available, amount: 40 },
            { account: available, amount: -40 },
          ],
        }),
      ),
    );
    expect(posted).toBe(true);
    expect(await deltasOf(available)).toBe(0);
    await expectLedgerConsistent(url);
  });
});

describe('concurrent credits and debits on one account', () => {
  it('never take the balance below zero and lose or make no centavo', async () => {
    const acc = uniqueAccount();
    const credits = Array.from({ length: 120 }, (_, i) => 100 + ((i * 7919) % 900));
    const debits = Array.from({ length: 60 }, (_, i) => 500 + ((i * 104_729) % 1_500));
    let refused = 0;
    const outcomes = await Promise.all([
      ...credits.map((cents) => credit(acc, cents)),
      ...debits.map((cents) =>
        reserve(acc, cents).catch((err: unknown) => {
          if (!(err instanceof InsufficientFunds)) throw err;
          expect(err.balanceCents).toBeLessThan(cents);
          refused += 1;
          return false;
        }),
      ),
    ]);
    expect(outcomes.slice(0, credits.length).every(Boolean)).toBe(true);
    const reservedPostings = outcomes.slice(credits.length).filter(Boolean).length;
    expect(reservedPostings + refused).toBe(debits.length);
    expect(reservedPostings).toBeGreaterThan(0);

    const balance = await readBalance(sql, acc);
    const total = credits.reduce((a, b) => a + b, 0);
    expect(balance.availableCents).toBeGreaterThanOrEqual(0);
    expect(balance.availableCents + balance.reservedCents).toBe(total);
    const [reservedSum] = await sql<{ sum: bigint }[]>`
      select coalesce(sum(e.amount), 0) as sum from ledger_entries e
      where e.ledger_account_id = ${customerAccount(acc, 'reserved')}`;
    expect(Number(reservedSum!.sum)).toBe(balance.reservedCents);
    await expectLedgerConsistent(url);
  });
});

describe('a retried debit', () => {
  it('answers already posted, not insufficient funds, once its own posting has spent the balance', async () => {
    const acc = uniqueAccount();
    await credit(acc, 1_000);
    const key = `test:retried:${acc}`;
    expect(await reserve(acc, 1_000, key)).toBe(true);
    expect(await reserve(acc, 1_000, key)).toBe(false);
    expect(await readBalance(sql, acc)).toEqual({ availableCents: 0, reservedCents: 1_000, retainedCents: 0 });
  });
});

describe('checkLedger with deltas', () => {
  it('reports a delta no entry explains, and entries of an account without a row', async () => {
    const acc = uniqueAccount();
    await credit(acc, 300);
    const available = customerAccount(acc, 'available');
    await sql`insert into ledger_balance_deltas (ledger_account_id, amount) values (${available}, 5)`;
    const ghost = customerAccount(`${acc}_ghost`, 'available');
    const [bad] = await sql<
      { id: bigint }[]
    >`insert into ledger_postings (posting_key, description) values (${`test:ghost:${acc}`}, 'ghost') returning id`;
    await sql`
      insert into ledger_entries (posting_id, ledger_account_id, amount)
      values (${String(bad!.id)}::bigint, ${ghost}, 40), (${String(bad!.id)}::bigint, ${platformAccount('pix_clearing', acc)}, -40)`;
    const violations = await checkLedger(sql);
    expect(violations).toContainEqual({ kind: 'balance_mismatch', account: available, balanceCents: 305, entriesCents: 300 });
    expect(violations).toContainEqual({ kind: 'balance_mismatch', account: ghost, balanceCents: 0, entriesCents: 40 });
    // Repair, so the other tests' consistency checks of this database stay meaningful.
    await sql`delete from ledger_balance_deltas where ledger_account_id = ${available} and amount = 5`;
    await sql`delete from ledger_entries where posting_id = ${String(bad!.id)}::bigint`;
    await sql`delete from ledger_postings where id = ${String(bad!.id)}::bigint`;
    expect(await checkLedger(sql)).toEqual([]);
  });
});
