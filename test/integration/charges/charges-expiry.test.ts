// Short timers (CHARGE_TTL_SECONDS=2, ACCEPT_WAIT_MS=1): the 202 answer while a charge is still being
// accepted, and a charge that nobody pays expiring into `cancelled` with `expired: true`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../../src/db/database.js';
import { chargeBody, newKey, payCharge, postCharge, waitForStatus } from '../../helpers/charges.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { poll } from '../../helpers/probe.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { startStack, type Stack } from '../../helpers/stack.js';

describe('charges with short timers', () => {
  let stack: Stack;
  let sql: Sql;
  beforeAll(async () => {
    stack = await startStack({ env: { CHARGE_TTL_SECONDS: '2', ACCEPT_WAIT_MS: '1' } });
    sql = connect(stack.databaseUrl, { max: 2 });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
  });

  it('answers 202 with the transaction as known while it is being accepted, then 200 with the accepted charge', async () => {
    const { client } = await createMerchant(stack);
    const key = newKey('slow');
    const first = await postCharge(client, chargeBody(), key);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ success: true, idempotent: false });
    expect(first.body.data).toMatchObject({ externalId: key, status: 'pending', amount: 100 });
    expect(first.body.data.id).toMatch(/^txn_/);

    const later = await poll(
      () => postCharge(client, chargeBody(), key),
      (res) => res,
      { notYet: [202] },
    );
    expect(later.body.idempotent).toBe(true);
    expect(later.body.data.id).toBe(first.body.data.id);
    expect(later.body.data.pix).not.toBeNull();
  });

  it('cancels an unpaid charge at expiry with expired true, records the event, moves no money, and keeps the key bound', async () => {
    const { client } = await createMerchant(stack);
    const key = newKey('exp');
    const created = await postCharge(client, chargeBody(), key);
    const id = created.body.data.id as string;
    // Answered 202 at ACCEPT_WAIT_MS=1 as a rule: until its workflow stores it, the charge reads 404.
    const cancelled = await waitForStatus(client, id, 'cancelled', 15_000, created.status === 202 ? [404] : []);
    expect(cancelled).toMatchObject({ expired: true, processingState: 'completed', approvedAt: null });

    const late = await payCharge(stack, id);
    expect(late.status).toBe(422);
    expect(late.body.error.code).toBe('charge_cancelled');

    const again = await postCharge(client, chargeBody(), key);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(cancelled);

    const events = await sql<{ id: string; type: string }[]>`select id, type from events where transaction_id = ${id}`;
    expect(events).toEqual([{ id: `evt_${id}_cancelled`, type: 'transaction.cancelled' }]);
    expect((await sql`select count(*)::int as n from ledger_postings where transaction_id = ${id}`)[0]!.n).toBe(0);
    expect((await client.get('/balance')).body.data).toEqual({ currency: 'BRL', available: 0, reserved: 0 });
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
