// Migration 041 on a database that already holds transfers written without payer nor expiry: they get
// the paying account as payer and creation plus 15 minutes as expiry, and the columns then refuse a
// missing value.
import { mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connect, ensureDatabase, type Sql } from '../../src/db/database.js';
import { migrate, MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { freshDatabaseUrl } from '../helpers/database.js';

const MIGRATION = '041_transfer_payer_expiry.sql';

describe(`migration ${MIGRATION}`, () => {
  let sql: Sql;
  let earlier: string;

  beforeAll(async () => {
    const url = freshDatabaseUrl(inject('testRunId'));
    await ensureDatabase(url);
    sql = connect(url, { max: 2 });
    earlier = await mkdtemp(join(tmpdir(), 'migrations-'));
    for (const file of (await readdir(MIGRATIONS_DIR)).filter((f) => f < MIGRATION)) {
      await symlink(join(MIGRATIONS_DIR, file), join(earlier, file));
    }
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    if (earlier) await rm(earlier, { recursive: true, force: true });
  });

  const insertTransfer = (id: string, externalId: string) => sql`
    insert into transactions (id, account_id, external_id, direction, type, method, acquirer, amount, fee, net_amount,
                              debited_amount, recipient_amount, fingerprint, created_at)
    values (${id}, 'acc_old', ${externalId}, 'out', 'withdrawal', 'pix', 'simulator', 1000, 0, 1000, 1000, 1000, 'f',
            '2025-06-01T12:00:00.000Z')`;

  it('backfills earlier transfers, then refuses a transfer without payer or expiry', async () => {
    await migrate(sql, earlier);
    await sql`insert into accounts (id, name, document, email, kyc_status) values ('acc_old', 'Loja Antiga', '11222333000181', 'antiga@example.com', 'approved')`;
    await insertTransfer('out_old', 'antes');

    expect(await migrate(sql)).toContain(MIGRATION);
    const [row] = await sql<{ payer: unknown; expires_at: Date }[]>`select payer, expires_at from transactions where id = 'out_old'`;
    expect(row!.payer).toEqual({ name: 'Loja Antiga', document: '11222333000181', email: 'antiga@example.com' });
    expect(row!.expires_at.toISOString()).toBe('2025-06-01T12:15:00.000Z');

    await expect(insertTransfer('out_new', 'depois')).rejects.toMatchObject({ code: '23502' });
  });
});
