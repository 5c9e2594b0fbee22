// Migration 071 on a database that already holds accounts sharing a document or an e-mail: the oldest
// of each group keeps the identity, the later ones are marked as allowed duplicates, and from then on
// the database refuses a new duplicate that is not marked.
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { migrationBench } from '../helpers/earlier-migrations.js';

const MIGRATION = '071_account_identity_unique.sql';

describe(`migration ${MIGRATION}`, () => {
  const db = migrationBench(MIGRATION);

  const insertAccount = (id: string, document: string, email: string, createdAt: string) =>
    db.sql`insert into accounts (id, name, document, email, created_at) values (${id}, 'Loja', ${document}, ${email}, ${createdAt})`;

  it('keeps the oldest account of each shared document or e-mail, marks the later ones, then refuses new duplicates', async () => {
    await migrate(db.sql, db.earlierDir);
    await insertAccount('acc_a', '11222333000181', 'a@example.com', '2025-01-01T00:00:00Z');
    await insertAccount('acc_b', '11.222.333/0001-81', 'b@example.com', '2025-02-01T00:00:00Z'); // same document, masked
    await insertAccount('acc_c', '52998224725', 'A@Example.com', '2025-03-01T00:00:00Z'); // same e-mail as acc_a
    await insertAccount('acc_d', '11144477735', 'd@example.com', '2025-04-01T00:00:00Z');

    await migrate(db.sql);

    const rows = await db.sql<{ id: string; duplicate_allowed: boolean }[]>`select id, duplicate_allowed from accounts order by id`;
    expect(rows).toEqual([
      { id: 'acc_a', duplicate_allowed: false },
      { id: 'acc_b', duplicate_allowed: true },
      { id: 'acc_c', duplicate_allowed: true },
      { id: 'acc_d', duplicate_allowed: false },
    ]);
    await expect(insertAccount('acc_e', '111.444.777-35', 'e@example.com', '2025-05-01T00:00:00Z')).rejects.toMatchObject({
      code: '23505',
      constraint_name: 'accounts_document_unique',
    });
    await expect(insertAccount('acc_f', '12345678909', 'D@EXAMPLE.COM', '2025-05-01T00:00:00Z')).rejects.toMatchObject({
      code: '23505',
      constraint_name: 'accounts_email_unique',
    });
  });
});
