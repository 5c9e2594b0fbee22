// The double-entry ledger against a real PostgreSQL: zero-sum, idempotency by key, no negative
// customer balance, and consistency under concurrent postings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { customerAccount, platformAccount, PLATFORM_SHARDS } from '../../src/ledger/accounts.js';
import { readBalance } from '../../src/ledger/balance.js';
import { checkLedger } from '../../src/ledger/check.js';
import { InsufficientFunds, InvalidPosting, post } from '../../src/ledger/post.js';
import { expectLedgerConsistent, fundAvailable } from '../helpers/ledger.js';
import { migratedDatabase } from '../helpers/migrated-database.js';

let sql: Sql;
let url: string;
let seq = 0;
const uniqueAccount = () => `acc_ledgertest${++seq}_${Date.now()}`;

const fund = (accountId: string, cents: number, key = `test:fund:${accountId}:${++seq}`) => fundAvailable(sql, accountId, cents, key);

beforeAll(async () => {
  ({ url, sql } = await migratedDatabase({ max: 20 }));
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe('ledger accounts', () => {
  it('names customer accounts by account and kind', () => {
    expect(customerAccount('acc_1', 'retained')).toBe('acc_1:retained');
  });

  it('spreads platform postings over all 16 shards, stably per seed', () => {
    const shards = new Set<string>();
    for (let i = 0; i < 500; i += 1) shards.add(platformAccount('fee_revenue', `txn_${i}`));
    expect(shards.size).toBe(PLATFORM_SHARDS);
    for (const shard of shards) expect(shard).toMatch(/^platform:fee_revenue:(0\d|1[0-5])$/);
    expect(platformAccount('pix_clearing', 'txn_abc')).toBe(platformAccount('pix_clearing', 'txn_abc'));
  });
});

describe('post', () => {
  it('refuses entries that do not sum to zero and writes nothing', async () => {
    const acc = uniqueAccount();
    const attempt = sql.begin((tx) =>
      post(tx, {
        key: `test:unbalanced:${acc}`,
        description: 'unbalanced',
        entries: [
          { account: platformAccount('pix_clearing', acc), amount: -100 },
          { account: customerAccount(acc, 'available'), amount: 99 },
        ],
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidPosting);
    const [row] = await sql`select count(*)::int as n from ledger_postings where posting_key = ${`test:unbalanced:${acc}`}`;
    expect(row!.n).toBe(0);
    expect(await readBalance(sql, acc)).toEqual({ availableCents: 0, reservedCents: 0, retainedCents: 0 });
  });

  it('refuses zero and fractional amounts and unknown account ids', async () => {
    const acc = uniqueAccount();
    const bad = [
      [{ account: customerAccount(acc, 'available'), amount: 0 }],
      [
        { account: customerAccount(acc, 'available'), amount: 0.5 },
        { account: platformAccount('fee_revenue', acc), amount: -0.5 },
      ],
      [
        { account: 'nonsense', amount: 1 },
        { account: platformAccount('fee_revenue', acc), amount: -1 },
      ],
    ];
    for (const entries of bad) {
      await expect(sql.begin((tx) => post(tx, { key: `test:bad:${++seq}`, description: 'bad', entries }))).rejects.toThrow();
    }
  });

  it('posts once per key under 20 concurrent identical posts', async () => {
    const acc = uniqueAccount();
    const key = `charge:${acc}:settle`;
    const results = await Promise.all(Array.from({ length: 20 }, () => fund(acc, 12_345, key)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await readBalance(sql, acc)).availableCents).toBe(12_345);
    const [row] =
      await sql`select count(*)::int as n from ledger_entries e join ledger_postings p on p.id = e.posting_id where p.posting_key = ${key}`;
    expect(row!.n).toBe(2);
    await expectLedgerConsistent(url);
  });

  it('refuses a negative customer balance with InsufficientFunds and leaves the caller transaction usable', async () => {
    const acc = uniqueAccount();
    await fund(acc, 1_000);
    const outcome = await sql.begin(async (tx) => {
      let refused: unknown = null;
      try {
        await post(tx, {
          key: `test:overdraw:${acc}`,
          description: 'move more than available',
          entries: [
            { account: customerAccount(acc, 'available'), amount: -1_001 },
            { account: customerAccount(acc, 'retained'), amount: 1_001 },
          ],
        });
      } catch (err) {
        refused = err;
      }
      // The same transaction still works after the refusal.
      const moved = await post(tx, {
        key: `test:retain:${acc}`,
        description: 'move what is available',
        entries: [
          { account: customerAccount(acc, 'available'), amount: -1_000 },
          { account: customerAccount(acc, 'retained'), amount: 1_000 },
        ],
      });
      return { refused, moved };
    });
    expect(outcome.refused).toBeInstanceOf(InsufficientFunds);
    expect((outcome.refused as InsufficientFunds).account).toBe(customerAccount(acc, 'available'));
    expect((outcome.refused as InsufficientFunds).balanceCents).toBe(1_000);
    expect((outcome.refused as InsufficientFunds).requiredCents).toBe(1_001);
    expect(outcome.moved).toBe(true);
    expect(await readBalance(sql, acc)).toEqual({ availableCents: 0, reservedCents: 0, retainedCents: 1_000 });
    const [row] = await sql`select count(*)::int as n from ledger_postings where posting_key = ${`test:overdraw:${acc}`}`;
    expect(row!.n).toBe(0);
    await expectLedgerConsistent(url);
  });

  it('keeps every balance equal to the sum of its entries under many concurrent postings', async () => {
    const accounts = Array.from({ length: 5 }, uniqueAccount);
    for (const acc of accounts) await fund(acc, 10_000);
    let refusals = 0;
    const moves = Array.from({ length: 300 }, (_, i) => {
      const from = accounts[i % 5]!;
      const to = accounts[(i * 7 + 3) % 5]!;
      const cents = 1 + ((i * 7919) % 3_000);
      const fee = 1 + (i % 50);
      return sql
        .begin((tx) =>
          post(tx, {
            key: `test:move:${from}:${i}`,
            transactionId: `txn_move_${i}`,
            description: 'move with fee',
            entries: [
              { account: customerAccount(from, 'available'), amount: -(cents + fee) },
              { account: customerAccount(to, 'available'), amount: cents },
              { account: platformAccount('fee_revenue', `txn_move_${i}`), amount: fee },
            ],
          }),
        )
        .catch((err) => {
          if (!(err instanceof InsufficientFunds)) throw err;
          refusals += 1;
          return false;
        });
    });
    const posted = (await Promise.all(moves)).filter(Boolean).length;
    expect(posted + refusals).toBe(300);
    expect(posted).toBeGreaterThan(0);

    const balances = await Promise.all(accounts.map((acc) => readBalance(sql, acc)));
    const customerTotal = balances.reduce((sum, b) => sum + b.availableCents, 0);
    const [fees] = await sql<{ total: bigint }[]>`
      select coalesce(sum(e.amount), 0) as total from ledger_entries e join ledger_postings p on p.id = e.posting_id
      where p.posting_key like 'test:move:%' and e.ledger_account_id like 'platform:fee_revenue:%'`;
    expect(customerTotal + Number(fees!.total)).toBe(50_000);
    for (const b of balances) expect(b.availableCents).toBeGreaterThanOrEqual(0);
    await expectLedgerConsistent(url);
  });
});

describe('checkLedger', () => {
  it('reports a balance that differs from its entries and a posting that does not sum to zero', async () => {
    const acc = uniqueAccount();
    await fund(acc, 500);
    await sql`update ledger_accounts set balance = balance + 1 where id = ${customerAccount(acc, 'available')}`;
    const [bad] = await sql<
      { id: bigint }[]
    >`insert into ledger_postings (posting_key, description) values (${`test:broken:${acc}`}, 'broken') returning id`;
    await sql`insert into ledger_entries (posting_id, ledger_account_id, amount) values (${String(bad!.id)}::bigint, ${customerAccount(acc, 'available')}, 7)`;
    const violations = await checkLedger(sql);
    expect(violations).toContainEqual({ kind: 'unbalanced_posting', postingKey: `test:broken:${acc}`, sumCents: 7 });
    expect(violations).toContainEqual({
      kind: 'balance_mismatch',
      account: customerAccount(acc, 'available'),
      balanceCents: 501,
      entriesCents: 507,
    });
    // Repair, so the other tests' consistency checks of this database stay meaningful.
    await sql`delete from ledger_entries where posting_id = ${String(bad!.id)}::bigint`;
    await sql`delete from ledger_postings where id = ${String(bad!.id)}::bigint`;
    await sql`update ledger_accounts set balance = balance - 1 where id = ${customerAccount(acc, 'available')}`;
    expect(await checkLedger(sql)).toEqual([]);
  });
});
