// Migration 150 on a database that already holds the simulated network's paid charges and devoluções:
// each paid charge gets an end-to-end id, which its approved charge in the engine takes too, and each
// devolução names the Pix it returns, so that the simulator lists them as a PSP does and a run matches
// them with the engine.
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.js';
import { SimulatorRecords } from '../../../src/pix-routes/simulator-records.js';
import { migrationBench } from '../../helpers/earlier-migrations.js';
import { insertAccountRow, insertTransactionRow } from '../../helpers/transaction-rows.js';

const MIGRATION = '150_reconciliation.sql';

describe(`migration ${MIGRATION}`, () => {
  const db = migrationBench(MIGRATION);

  it('gives paid charges an end-to-end id, shared with the engine, and nests their devoluções under them', async () => {
    await migrate(db.sql, db.earlierDir);
    const accountId = await insertAccountRow(db.sql);
    const paidAt = new Date('2026-11-20T15:04:05Z');
    const paid = await insertTransactionRow(db.sql, accountId, { status: 'approved', createdAt: paidAt });
    const open = await insertTransactionRow(db.sql, accountId);
    for (const [transactionId, txid, status] of [
      [paid, 'txpaid', 'paid'],
      [open, 'txopen', 'active'],
    ] as const) {
      await db.sql`
        insert into simulator_charges (txid, transaction_id, amount, br_code, qr_code_base64, status, expires_at, paid_at)
        values (${txid}, ${transactionId}, 10000, 'code', 'png', ${status}, ${new Date(paidAt.getTime() + 900_000)},
                ${status === 'paid' ? paidAt : null})`;
    }
    await db.sql`
      insert into refunds (id, account_id, transaction_id, idempotency_key, fingerprint, route, amount, status, settled_at)
      values ('rfd_000000000000000000000001', ${accountId}, ${paid}, 'k', 'f', 'simulator', 2500, 'approved', now())`;
    await db.sql`
      insert into simulator_refunds (refund_id, return_id, amount, status, settled_at)
      values ('rfd_000000000000000000000001', 'D1', 2500, 'approved', now())`;

    await migrate(db.sql);

    const charges = await db.sql<{ txid: string; e2e: string | null }[]>`
      select txid, end_to_end_id as e2e from simulator_charges order by txid`;
    expect(charges).toEqual([
      { txid: 'txopen', e2e: null },
      { txid: 'txpaid', e2e: expect.stringMatching(/^E00000000202611201504[0-9a-f]{11}$/) },
    ]);
    const e2e = charges[1]!.e2e!;
    const [engine] = await db.sql<{ e2e: string | null }[]>`select end_to_end_id as e2e from transactions where id = ${paid}`;
    expect(engine!.e2e).toBe(e2e);
    const pages = [];
    for await (const page of new SimulatorRecords(db.sql).received(paidAt, new Date(paidAt.getTime() + 1000))) pages.push(...page);
    expect(pages).toEqual([
      expect.objectContaining({
        endToEndId: e2e,
        txid: 'txpaid',
        amountCents: 10000,
        refunds: [
          expect.objectContaining({ id: 'rfd000000000000000000000001', nature: 'ORIGINAL', status: 'DEVOLVIDO', amountCents: 2500 }),
        ],
      }),
    ]);
  });
});
