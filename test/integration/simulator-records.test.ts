// The simulator's records (RouteRecords) as reconciliation reads them, on PostgreSQL: received Pix of
// both kinds (paid charges, Pix no charge asked for) merged in time order, page after page, each once,
// the window's bounds [from, to) kept, devoluções under their Pix, envios with the PSP's statuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { SimulatorRecords } from '../../src/pix-routes/simulator-records.js';
import { migratedDatabase } from '../helpers/migrated-database.js';

let sql: Sql;
const base = Date.parse('2026-11-20T12:00:00Z');
const at = (seconds: number) => new Date(base + seconds * 1000);

async function all<T>(pages: AsyncIterable<T[]>): Promise<{ pages: number; records: T[] }> {
  const records: T[] = [];
  let count = 0;
  for await (const page of pages) {
    count += 1;
    records.push(...page);
  }
  return { pages: count, records };
}

beforeAll(async () => {
  ({ sql } = await migratedDatabase({ max: 2 }));
  // Paid charges at 0, 2, 4, 4 (two at the same instant), 6 s; Pix no charge asked for at 1, 4, 5 s; one of each outside.
  const charges: Array<[string, number]> = [
    ['c0', 0],
    ['c2', 2],
    ['c4a', 4],
    ['c4b', 4],
    ['c6', 6],
    ['cx', 10],
  ];
  for (const [name, second] of charges) {
    await sql`
      insert into simulator_charges (txid, transaction_id, amount, br_code, qr_code_base64, status, expires_at, paid_at, end_to_end_id, payer)
      values (${`tx${name}`}, ${`txn_${name}`}, 100, 'code', 'png', 'paid', ${at(900)}, ${at(second)}, ${`E${name}`},
              ${sql.json({ name: 'Maria', document: '52998224725', bankName: 'Banco' })})`;
  }
  for (const [name, second] of [
    ['u1', 1],
    ['u4', 4],
    ['u5', 5],
    ['ux', -1],
  ] as const) {
    await sql`
      insert into simulator_received_pix (end_to_end_id, txid, amount, payer, received_at)
      values (${`E${name}`}, null, 50, ${sql.json({ name: 'Fulano', document: '11144477735' })}, ${at(second)})`;
  }
  await sql`
    insert into simulator_refunds (refund_id, return_id, amount, status, reason, end_to_end_id, nature, created_at, settled_at)
    values ('rfd_a', 'D1', 30, 'failed', 'conta encerrada', 'Ec2', 'ORIGINAL', ${at(3)}, ${at(3)}),
           ('MED9', 'D2', 20, 'pending', null, 'Ec2', 'MED_FRAUDE', ${at(4)}, null)`;
  for (const [id, second, status] of [
    ['out_a', 1, 'approved'],
    ['out_b', 2, 'failed'],
    ['out_c', 3, 'pending'],
  ] as const) {
    await sql`
      insert into simulator_transfers (end_to_end_id, transaction_id, amount, destination, status, created_at)
      values (${`S${id}`}, ${id}, 70, ${sql.json({ type: 'pix_key', value: 'a@example.com' })}, ${status}, ${at(second)})`;
  }
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe('SimulatorRecords', () => {
  it('lists the received Pix of [from, to) in time order, a page at a time, each once', async () => {
    for (const pageSize of [1, 2, 3, 100]) {
      const { pages, records } = await all(new SimulatorRecords(sql, pageSize).received(at(0), at(10)));
      expect(records.map((r) => r.endToEndId)).toEqual(['Ec0', 'Eu1', 'Ec2', 'Ec4a', 'Ec4b', 'Eu4', 'Eu5', 'Ec6']);
      expect(pages).toBeGreaterThanOrEqual(Math.ceil(8 / pageSize));
    }
  });

  it('gives each Pix as the PSP lists it, with its devoluções', async () => {
    const { records } = await all(new SimulatorRecords(sql).received(at(2), at(3)));
    expect(records).toEqual([
      {
        endToEndId: 'Ec2',
        txid: 'txc2',
        amountCents: 100,
        at: at(2),
        payer: { name: 'Maria', document: '52998224725' },
        refunds: [
          expect.objectContaining({
            id: 'rfda',
            rtrId: 'D1',
            amountCents: 30,
            nature: 'ORIGINAL',
            status: 'NAO_REALIZADO',
            reason: 'conta encerrada',
          }),
          expect.objectContaining({ id: 'MED9', nature: 'MED_FRAUDE', status: 'EM_PROCESSAMENTO', settledAt: null }),
        ],
      },
    ]);
    const unasked = await all(new SimulatorRecords(sql).received(at(1), at(2)));
    expect(unasked.records).toEqual([expect.objectContaining({ endToEndId: 'Eu1', txid: null, amountCents: 50, refunds: [] })]);
  });

  it('lists the envios with the PSP statuses, by idEnvio', async () => {
    const { records } = await all(new SimulatorRecords(sql, 2).sent(at(0), at(10)));
    expect(records.map((r) => [r.idEnvio, r.endToEndId, r.status, r.amountCents])).toEqual([
      ['outa', 'Sout_a', 'REALIZADO', 70],
      ['outb', 'Sout_b', 'NAO_REALIZADO', 70],
      ['outc', 'Sout_c', 'EM_PROCESSAMENTO', 70],
    ]);
  });
});
