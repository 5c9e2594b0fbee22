// Migration 330 gives the recurrences a database already holds a payer's page token: 43 base64url
// characters, one each, never twice the same, and the column then refuses a recurrence without one.
import { describe, expect, it } from 'vitest';
import { migrate } from '../../../src/db/migrate.js';
import { isCheckoutTokenShape } from '../../../src/domain/checkout-token.js';
import { migrationBench } from '../../helpers/earlier-migrations.js';
import { insertAccountRow } from '../../helpers/transaction-rows.js';

const MIGRATION = '330_recurrence_checkout_tokens.sql';

describe(`migration ${MIGRATION}`, () => {
  const db = migrationBench(MIGRATION);

  it('backfills a distinct token of the page shape for every recurrence, then requires one', async () => {
    await migrate(db.sql, db.earlierDir);
    const account = await insertAccountRow(db.sql);
    const insert = (id: string) => db.sql`
      insert into recurrences (id, account_id, external_id, status, payer, contract, description, frequency, first_due_date,
        amount, retry_policy, authorization_copy_paste, authorization_qr_code_base64, authorization_expires_at, route, fingerprint)
      values (${id}, ${account}, ${id}, 'pending_authorization', ${db.sql.json({ name: 'Maria', document: '52998224725' })}, 'C-1',
        'Plano', 'monthly', '2027-01-10', 9990, 'none', '000201', 'iVBOR', now() + interval '7 days', 'simulator', 'f')`;
    for (let i = 0; i < 50; i += 1) await insert(`rec_${String(i).padStart(24, '0')}`);

    await migrate(db.sql);

    const rows = await db.sql<{ checkout_token: string }[]>`select checkout_token from recurrences`;
    expect(rows).toHaveLength(50);
    for (const { checkout_token } of rows) {
      expect(checkout_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isCheckoutTokenShape(checkout_token)).toBe(true);
    }
    expect(new Set(rows.map((r) => r.checkout_token)).size).toBe(50);
    await expect(insert('rec_999999999999999999999999')).rejects.toThrow(/checkout_token/);
  });
});
