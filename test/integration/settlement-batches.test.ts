// Charge approvals that arrive together settle in one PostgreSQL transaction (src/db/group-commit.ts,
// settleManyOnce): each still gets exactly what it would alone (its row, its event, one posting), a
// charge twice in one batch or already settled is answered as settleOnce answers it, and a batch that
// fails settles its charges one by one, so that only the bad one fails.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleChargePaid } from '../../src/charges/lifecycle.js';
import type { PaidAtRoute } from '../../src/charges/contract.js';
import type { Sql } from '../../src/db/database.js';
import { readBalance } from '../../src/ledger/balance.js';
import { createLogger } from '../../src/runtime/log.js';
import { loadTransactionRow } from '../../src/transactions/settle.js';
import { serializeTransaction } from '../../src/transactions/serialize.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { migratedDatabase } from '../helpers/migrated-database.js';
import { insertAccountRow, insertTransactionRow } from '../helpers/transaction-rows.js';

let sql: Sql;
let url: string;
let deps: Parameters<typeof settleChargePaid>[0];

beforeAll(async () => {
  ({ sql, url } = await migratedDatabase());
  deps = { sql, config: { pixRoutes: [], chargeTtlSeconds: 3600 }, log: createLogger('silent') } as never;
});

afterAll(async () => {
  await sql.end({ timeout: 5 });
});

const paid = (overrides: Partial<PaidAtRoute> = {}): PaidAtRoute => ({
  status: 'paid',
  paidAt: '2026-11-24T10:00:00.000Z',
  amountCents: 10_000,
  payer: { name: 'João Pagador', bankName: 'Banco Teste' },
  endToEndId: `E${randomBytes(12).toString('hex')}`,
  ...overrides,
});

/** The distinct PostgreSQL transactions that wrote these charges' postings. */
const committingTransactions = async (ids: string[]) =>
  (
    await sql<{ n: number }[]>`select count(distinct xmin::text)::int as n from ledger_postings where transaction_id = any(${ids}::text[])`
  )[0]!.n;

const postingsOf = async (id: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from ledger_postings where transaction_id = ${id}`)[0]!.n;

describe('charge settlements in batches', () => {
  it('settles concurrent approvals together, each as it would alone: row, event, posting, balances', async () => {
    const merchants = [await insertAccountRow(sql), await insertAccountRow(sql), await insertAccountRow(sql)];
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => insertTransactionRow(sql, merchants[i % 3]!, { amountCents: 1_000 + i, feeCents: 50 })),
    );
    const routePaid = ids.map((_, i) => paid({ amountCents: 1_000 + i, paidAt: new Date(Date.UTC(2026, 10, 24, 10, 0, i)).toISOString() }));

    const results = await Promise.all(ids.map((id, i) => settleChargePaid(deps, id, routePaid[i]!)));

    // The first call found the group idle and went alone; the 29 that came while it ran went as one.
    expect(await committingTransactions(ids)).toBe(2);
    for (const [i, id] of ids.entries()) {
      const row = await loadTransactionRow(sql, id);
      expect(row.status).toBe('approved');
      expect(row.approvedAt?.toISOString()).toBe(routePaid[i]!.paidAt);
      const [stored] = await sql<{ e2e: string }[]>`select end_to_end_id as e2e from transactions where id = ${id}`;
      expect(stored!.e2e).toBe(routePaid[i]!.endToEndId);
      expect(row.payer).toMatchObject({
        name: 'João Pagador',
        document: '52998224725',
        email: 'maria@example.com',
        bankName: 'Banco Teste',
      });
      // The workflow is answered its own plain state of the charge; the public object goes to the event.
      expect(results[i]).toEqual({
        transaction: { id, status: 'approved', expiresAtMs: row.expiresAt.getTime(), opened: true },
        eventIds: [`evt_${id}_approved`],
      });
      const [event] = await sql<
        { type: string; payload: { data: unknown } }[]
      >`select type, payload from events where id = ${`evt_${id}_approved`}`;
      expect(event).toEqual({ type: 'transaction.approved', payload: expect.objectContaining({ data: serializeTransaction(row) }) });
      expect(await postingsOf(id)).toBe(1);
    }
    for (const [m, merchant] of merchants.entries()) {
      const net = ids.reduce((sum, _, i) => (i % 3 === m ? sum + 1_000 + i - 50 : sum), 0);
      expect((await readBalance(sql, merchant)).availableCents).toBe(net);
    }
    await expectLedgerConsistent(url);
  });

  it('answers a charge twice in one batch, and one already settled, as settleOnce does: one posting, the same event', async () => {
    const merchant = await insertAccountRow(sql);
    const [first, twice, settled, fresh] = await Promise.all(
      [1, 2, 3, 4].map(() => insertTransactionRow(sql, merchant, { amountCents: 5_000, feeCents: 100 })),
    );
    const earlier = await settleChargePaid(deps, settled!, paid({ amountCents: 5_000 }));

    const [, again1, again2, settledAgain, freshResult] = await Promise.all([
      settleChargePaid(deps, first!, paid({ amountCents: 5_000 })),
      settleChargePaid(deps, twice!, paid({ amountCents: 5_000 })),
      settleChargePaid(deps, twice!, paid({ amountCents: 5_000 })),
      settleChargePaid(deps, settled!, paid({ amountCents: 5_000 })),
      settleChargePaid(deps, fresh!, paid({ amountCents: 5_000 })),
    ]);

    expect(again1).toEqual(again2);
    expect(again1!.eventIds).toEqual([`evt_${twice}_approved`]);
    expect(settledAgain).toEqual(earlier);
    expect(freshResult!.transaction.status).toBe('approved');
    for (const id of [first!, twice!, settled!, fresh!]) expect(await postingsOf(id)).toBe(1);
    expect((await readBalance(sql, merchant)).availableCents).toBe(4 * 4_900);
    await expectLedgerConsistent(url);
  });

  it('settles a failed batch one by one: only the charge that cannot settle fails, and it stays pending', async () => {
    const merchant = await insertAccountRow(sql);
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => insertTransactionRow(sql, merchant, { amountCents: 2_000, feeCents: 100 })));
    const taken = paid({ amountCents: 2_000 });
    await settleChargePaid(deps, ids[0]!, taken);

    // ids[2] arrives with the end-to-end id of ids[0] (unique): its batch fails as a whole.
    const outcomes = await Promise.allSettled([
      settleChargePaid(deps, ids[1]!, paid({ amountCents: 2_000 })),
      settleChargePaid(deps, ids[2]!, paid({ amountCents: 2_000, endToEndId: taken.endToEndId! })),
      settleChargePaid(deps, ids[3]!, paid({ amountCents: 2_000 })),
      settleChargePaid(deps, ids[4]!, paid({ amountCents: 2_000 })),
    ]);

    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '23505' });
    expect((await loadTransactionRow(sql, ids[2]!)).status).toBe('pending');
    expect(await postingsOf(ids[2]!)).toBe(0);
    for (const id of [ids[0]!, ids[1]!, ids[3]!, ids[4]!]) expect(await postingsOf(id)).toBe(1);
    expect((await readBalance(sql, merchant)).availableCents).toBe(4 * 1_900);
    await expectLedgerConsistent(url);
  });
});
