// The transactions read model against PostgreSQL: account scoping, lookups by id and externalId,
// newest-first pages with filters, the full serialized Transaction, and recorded events.
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { recordTransactionEvent } from '../../src/transactions/events.js';
import { findTransaction, listTransactions } from '../../src/transactions/repository.js';
import { TransactionSchema } from '../../src/transactions/schema.js';
import { serializeTransaction } from '../../src/transactions/serialize.js';
import { migratedDatabase } from '../helpers/migrated-database.js';
import { insertAccountRow, insertTransactionRow } from '../helpers/transaction-rows.js';

let sql: Sql;
const validTransaction = Compile(TransactionSchema);
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  ({ sql } = await migratedDatabase({ max: 4 }));
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe('findTransaction', () => {
  it('finds by id or externalId only within the account', async () => {
    const mine = await insertAccountRow(sql);
    const other = await insertAccountRow(sql);
    const id = await insertTransactionRow(sql, mine, { externalId: 'pedido-123' });
    expect((await findTransaction(sql, mine, id))?.id).toBe(id);
    expect((await findTransaction(sql, mine, 'pedido-123'))?.id).toBe(id);
    expect(await findTransaction(sql, other, id)).toBeNull();
    expect(await findTransaction(sql, other, 'pedido-123')).toBeNull();
    expect(await findTransaction(sql, mine, 'txn_unknown')).toBeNull();
  });

  it('prefers the transaction whose id matches over one whose externalId is that text', async () => {
    const mine = await insertAccountRow(sql);
    const target = await insertTransactionRow(sql, mine);
    await insertTransactionRow(sql, mine, { externalId: target });
    expect((await findTransaction(sql, mine, target))?.id).toBe(target);
  });
});

describe('listTransactions', () => {
  it('pages newest first with the total, filtered by status and type', async () => {
    const acc = await insertAccountRow(sql);
    const base = Date.parse('2025-01-01T12:00:00.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      ids.push(
        await insertTransactionRow(sql, acc, {
          createdAt: new Date(base + i * 1000),
          kind: i % 3 === 0 ? 'transfer' : 'charge',
          status: i % 2 === 0 ? 'approved' : 'pending',
        }),
      );
    }
    const newestFirst = [...ids].reverse();
    const first = await listTransactions(sql, acc, { page: 1, limit: 3 });
    expect(first.total).toBe(7);
    expect(first.rows.map((r) => r.id)).toEqual(newestFirst.slice(0, 3));
    const last = await listTransactions(sql, acc, { page: 3, limit: 3 });
    expect(last.rows.map((r) => r.id)).toEqual(newestFirst.slice(6));
    expect((await listTransactions(sql, acc, { page: 4, limit: 3 })).rows).toEqual([]);

    const approved = await listTransactions(sql, acc, { page: 1, limit: 100, status: 'approved' });
    expect(approved.rows.map((r) => r.id)).toEqual(newestFirst.filter((_, i) => (6 - i) % 2 === 0));
    expect(approved.total).toBe(4);
    const withdrawals = await listTransactions(sql, acc, { page: 1, limit: 100, type: 'withdrawal' });
    expect(withdrawals.rows.map((r) => r.id)).toEqual([ids[6], ids[3], ids[0]]);
    const both = await listTransactions(sql, acc, { page: 1, limit: 100, type: 'payment', status: 'pending' });
    expect(both.rows.map((r) => r.id).sort()).toEqual([ids[1], ids[5]].sort());
    expect(both.total).toBe(2);
  });
});

describe('serializeTransaction', () => {
  it('shows every field of the spec in reais with ISO dates, matching the schema', async () => {
    const acc = await insertAccountRow(sql);
    const id = await insertTransactionRow(sql, acc, {
      amountCents: 14_990,
      feeCents: 349,
      splitAmountCents: 1_000,
      split: [{ recipient: 'parceiro@example.com', accountId: 'acc_partner', amountCents: 1_000, percent: null, description: null }],
      payer: { name: 'Maria da Silva', document: '52998224725', bankName: 'Banco Simulado', state: 'SP' },
      status: 'approved',
      createdAt: new Date('2025-03-04T05:06:07.089Z'),
    });
    const transaction = serializeTransaction((await findTransaction(sql, acc, id))!);
    expect(validTransaction.Check(transaction)).toBe(true);
    expect(transaction).toMatchObject({
      id,
      direction: 'in',
      type: 'payment',
      method: 'pix',
      status: 'approved',
      expired: false,
      processingState: 'completed',
      acquirer: 'simulator',
      amount: 149.9,
      fee: 3.49,
      netAmount: 136.41,
      debitedAmount: null,
      recipientAmount: null,
      splitAmount: 10,
      split: [{ recipient: 'parceiro@example.com', accountId: 'acc_partner', amount: 10, percent: null, description: null }],
      refundedAmount: 0,
      payer: { name: 'Maria da Silva', document: '52998224725', email: null, bankName: 'Banco Simulado', state: 'SP' },
      counterparty: null,
      pix: { copyPaste: '00020101021226...6304ABCD', qrCodeBase64: 'iVBORw0KGgo=' },
      expiresAt: '2025-03-04T05:21:07.089Z',
      approvedAt: '2025-03-04T05:06:07.089Z',
      createdAt: '2025-03-04T05:06:07.089Z',
    });
    expect(transaction.updatedAt).toMatch(ISO_MS);
  });

  it('shows a transfer without pix, with its payer and expiry', async () => {
    const acc = await insertAccountRow(sql);
    const createdAt = new Date('2025-03-04T05:06:07.089Z');
    const payer = { name: 'Loja Leitura', document: '11222333000181', email: 'loja@example.com' };
    const id = await insertTransactionRow(sql, acc, { kind: 'transfer', amountCents: 500, feeCents: 50, payer, createdAt });
    const transaction = serializeTransaction((await findTransaction(sql, acc, id))!);
    expect(validTransaction.Check(transaction)).toBe(true);
    expect(transaction).toMatchObject({
      direction: 'out',
      type: 'withdrawal',
      pix: null,
      payer,
      expiresAt: '2025-03-04T05:21:07.089Z',
      debitedAmount: 5.5,
      recipientAmount: 5,
    });
  });
});

describe('recordTransactionEvent', () => {
  it('records evt_<id>_<status> once with the full transaction as data', async () => {
    const acc = await insertAccountRow(sql);
    const id = await insertTransactionRow(sql, acc, { status: 'approved' });
    const row = (await findTransaction(sql, acc, id))!;
    const first = await sql.begin((tx) => recordTransactionEvent(tx, row));
    const again = await sql.begin((tx) => recordTransactionEvent(tx, row));
    expect(first).toBe(`evt_${id}_approved`);
    expect(again).toBe(first);
    const events = await sql<
      { type: string; payload: any; account_id: string; transaction_id: string }[]
    >`select * from events where id = ${first}`;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'transaction.approved', account_id: acc, transaction_id: id });
    expect(events[0]!.payload).toEqual({
      id: first,
      event: 'transaction.approved',
      createdAt: expect.stringMatching(ISO_MS),
      data: serializeTransaction(row),
    });
  });
});
