// Migration 041 on a database that already holds transfers written without payer nor expiry: they get
// the paying account as payer and creation plus 15 minutes as expiry, and the columns then refuse a
// missing value.
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.js';
import { migrationBench } from '../../helpers/earlier-migrations.js';

const MIGRATION = '041_transfer_payer_expiry.sql';

describe(`migration ${MIGRATION}`, () => {
  const db = migrationBench(MIGRATION);

  const insertTransfer = (id: string, externalId: string) => db.sql`
    insert into transactions (id, account_id, external_id, direction, type, method, acquirer, amount, fee, net_amount,
                              debited_amount, recipient_amount, fingerprint, created_at)
    values (${id}, 'acc_old', ${externalId}, 'out', 'withdrawal', 'pix', 'simulator', 1000, 0, 1000, 1000, 1000, 'f',
            '2025-06-01T12:00:00.000Z')`;

  it('backfills earlier transfers, then refuses a transfer without payer or expiry', async () => {
    await migrate(db.sql, db.earlierDir);
    await db.sql`insert into accounts (id, name, document, email, kyc_status) values ('acc_old', 'Loja Antiga', '11222333000181', 'antiga@example.com', 'approved')`;
    await insertTransfer('out_old', 'antes');

    expect(await migrate(db.sql)).toContain(MIGRATION);
    const [row] = await db.sql<{ payer: unknown; expires_at: Date }[]>`select payer, expires_at from transactions where id = 'out_old'`;
    expect(row!.payer).toEqual({ name: 'Loja Antiga', document: '11222333000181', email: 'antiga@example.com' });
    expect(row!.expires_at.toISOString()).toBe('2025-06-01T12:15:00.000Z');

    await expect(insertTransfer('out_new', 'depois')).rejects.toMatchObject({ code: '23502' });
  });
});
