// The counters of migration 110 (per account, status and type; the platform's approved transactions,
// volume and accounts) against count(*) and sum(amount): backfilled from the rows a database already
// holds, kept exact by concurrent writers, and kept exact by the real engine's charges (paid, expired,
// refunded by a MED) and transfers (approved, failed); the list's `pagination.total` and the
// transparency figures they now answer equal a direct count.
import { describe, expect, it } from 'vitest';
import { INDICATORS_TTL_MS } from '../../src/api/routes/transparency.js';
import type { Sql } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { TRANSACTION_STATUSES } from '../../src/transactions/row.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { migrationBench } from '../helpers/earlier-migrations.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { migratedDatabase } from '../helpers/migrated-database.js';
import { admin, http } from '../helpers/stack.js';
import { insertAccountRow, insertTransactionRow } from '../helpers/transaction-rows.js';
import { completeTransfer, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';

const MIGRATION = '110_transaction_counters.sql';

/** Every (account, status, type) whose counters do not sum to its count(*): empty when they are exact. */
function miscounted(sql: Sql) {
  return sql`
    select account_id, status, type, coalesce(counted, 0)::int as counted, coalesce(rows, 0)::int as rows
      from (select account_id, status, type, sum(transactions) as counted from transaction_counts group by account_id, status, type) c
      full join (select account_id, status, type, count(*) as rows from transactions group by account_id, status, type) t
           using (account_id, status, type)
     where coalesce(counted, 0) <> coalesce(rows, 0)`;
}

/** The platform's figures as the counters hold them and as the rows say. */
async function platformFigures(sql: Sql) {
  const [[counted], [direct]] = await Promise.all([
    sql`select sum(approved_transactions)::int as approved, sum(approved_volume)::int as volume, sum(accounts)::int as accounts from platform_counts`,
    sql`select count(*)::int as approved, coalesce(sum(amount), 0)::int as volume, (select count(*)::int from accounts) as accounts
          from transactions where status = 'approved'`,
  ]);
  return { counted, direct };
}

describe(`migration ${MIGRATION}`, () => {
  const db = migrationBench(MIGRATION);

  it('backfills the counters from the rows already there', async () => {
    await migrate(db.sql, db.earlierDir);
    const accounts = [await insertAccountRow(db.sql), await insertAccountRow(db.sql), await insertAccountRow(db.sql)];
    for (let i = 0; i < 60; i += 1) {
      await insertTransactionRow(db.sql, accounts[i % 3]!, {
        kind: i % 5 === 0 ? 'transfer' : 'charge',
        status: i % 5 === 0 ? (i % 10 === 0 ? 'approved' : 'failed') : TRANSACTION_STATUSES[i % TRANSACTION_STATUSES.length],
        amountCents: 100 + i,
      });
    }

    await migrate(db.sql);

    expect(await miscounted(db.sql)).toEqual([]);
    const [{ keys }] = (await db.sql`select count(distinct (account_id, status, type))::int as keys from transaction_counts`) as [
      { keys: number },
    ];
    expect(keys).toBeGreaterThan(10);
    const { counted, direct } = await platformFigures(db.sql);
    expect(direct).toMatchObject({ accounts: 3 });
    expect(direct!.approved).toBeGreaterThan(0);
    expect(counted).toEqual(direct);
  });
});

describe('counters under concurrent writers', () => {
  it('stay exact when many transactions insert and settle rows of one account at once, without deadlocks', async () => {
    const { sql } = await migratedDatabase({ max: 10 });
    try {
      const account = await insertAccountRow(sql);
      // Each: insert a pending charge, then approve it (cancel one in four) in a second statement.
      await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          sql.begin(async (tx) => {
            const id = await insertTransactionRow(tx as unknown as Sql, account, { amountCents: 1_000 + i });
            await tx`update transactions set status = ${i % 4 === 0 ? 'cancelled' : 'approved'} where id = ${id}`;
          }),
        ),
      );
      await sql`delete from transactions where amount % 10 = 0`; // i = 0, 10, … 70: 4 cancelled, 4 approved

      expect(await miscounted(sql)).toEqual([]);
      const { counted, direct } = await platformFigures(sql);
      expect(direct).toMatchObject({ approved: 56, accounts: 1 });
      expect(counted).toEqual(direct);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

describe('counters kept by the engine', () => {
  // Charges expire after 5 s; transfers settle only when the simulated network is told to.
  const live = liveStack({ env: { CHARGE_TTL_SECONDS: '5', SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

  it('equal count(*) after charges paid, expired and refunded and transfers approved and failed; the list totals and transparency agree', async () => {
    const seller = await createMerchant(live.stack);
    const other = await createMerchant(live.stack);

    const paid = [];
    for (const amount of [120, 35.5, 10]) {
      const charge = await createCharge(seller.client, { amount });
      expect((await payCharge(live.stack, charge.id)).status).toBe(200);
      paid.push(charge);
    }
    const expiring = await createCharge(seller.client, { amount: 7 });
    const otherExpiring = await createCharge(other.client, { amount: 3 });
    for (const charge of paid) await waitForStatus(seller.client, charge.id, 'approved');
    await waitForStatus(seller.client, expiring.id, 'cancelled', 30_000);
    await waitForStatus(other.client, otherExpiring.id, 'cancelled', 30_000);

    const opened = await admin(live.stack, 'POST', '/simulator/meds', { transactionId: paid[2].id });
    expect(opened.status, opened.text).toBe(201);
    expect((await admin(live.stack, 'POST', `/meds/${opened.body.data.id}/decision`, { outcome: 'accepted' })).status).toBe(200);
    await waitForStatus(seller.client, paid[2].id, 'refunded');

    await fund(live.stack, other.client, 50);
    for (const outcome of ['approved', 'failed'] as const) {
      const transfer = await postTransfer(other.client, cpfKeyBody({ amount: 10 }));
      expect(transfer.status, transfer.text).toBe(201);
      expect((await completeTransfer(live.stack, transfer.body.data.id, outcome)).status).toBe(200);
      await waitForStatus(other.client, transfer.body.data.id, outcome);
    }
    const changedAt = Date.now();

    expect(await miscounted(live.sql)).toEqual([]);
    const counters = await live.sql`
      select status, type, sum(transactions)::int as n from transaction_counts
       where account_id = ${seller.account.id} group by status, type having sum(transactions) <> 0 order by status, type`;
    expect(counters).toEqual([
      { status: 'approved', type: 'payment', n: 2 },
      { status: 'cancelled', type: 'payment', n: 1 },
      { status: 'refunded', type: 'payment', n: 1 },
    ]);

    for (const merchant of [seller, other]) {
      for (const [status, type] of [
        [],
        ...TRANSACTION_STATUSES.map((s) => [s]),
        [undefined, 'payment'],
        [undefined, 'withdrawal'],
        ['approved', 'withdrawal'],
      ]) {
        const query = new URLSearchParams({ ...(status ? { status } : {}), ...(type ? { type } : {}), limit: '1' });
        const listed = await merchant.client.get(`/transactions?${query}`);
        expect(listed.status, listed.text).toBe(200);
        const [{ n }] = (await live.sql`
          select count(*)::int as n from transactions
           where account_id = ${merchant.account.id}
             ${status ? live.sql`and status = ${status}` : live.sql``}
             ${type ? live.sql`and type = ${type}` : live.sql``}`) as [{ n: number }];
        expect(listed.body.pagination, `${merchant.account.id} ${query}`).toEqual({ page: 1, limit: 1, total: n, pages: n });
      }
    }

    // Figures computed after the last change (the endpoint keeps them for INDICATORS_TTL_MS).
    const { counted, direct } = await platformFigures(live.sql);
    expect(counted).toEqual(direct);
    expect(direct).toMatchObject({ approved: 4, volume: 12_000 + 3_550 + 5_000 + 1_000 }); // the refunded 10.00 is not counted
    const shown = await eventually(
      async () => {
        const res = await http('GET', `${live.stack.baseUrl}/transparency`);
        return Date.parse(res.body.data.atualizadoEm) > changedAt ? res.body.data : undefined;
      },
      INDICATORS_TTL_MS * 3,
      250,
    );
    expect(shown).toMatchObject({
      transacoesConcluidas: direct!.approved,
      volumeMovimentado: direct!.volume / 100,
      contasCriadas: direct!.accounts,
    });
  });
});
