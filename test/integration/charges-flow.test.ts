import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { chargeBody, createCharge, newKey, payCharge, postCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { startStack, type Stack } from '../helpers/stack.js';

describe('charges: create, pay, approve', () => {
  let stack: Stack;
  let sql: Sql;
  beforeAll(async () => {
    stack = await startStack();
    sql = connect(stack.databaseUrl, { max: 2 });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
  });

  it('creates a pending charge with a BR Code, and a payment approves it with the ledger posted to the centavo', async () => {
    const merchant = await createMerchant(stack, { fees: { charge: { fixed: 0.5, percent: 1.99 } } });
    const created = await createCharge(merchant.client, { amount: 150.75 });
    expect(created).toMatchObject({ status: 'pending', processingState: 'monitoring', amount: 150.75, direction: 'in', type: 'payment', method: 'pix', expired: false });
    expect(created.pix.copyPaste).toMatch(/^000201/);

    const paid = await payCharge(stack, created.id);
    expect(paid.status).toBe(200);
    const approved = await waitForStatus(merchant.client, created.id, 'approved');
    expect(approved.processingState).toBe('completed');
    expect(approved.payer).toMatchObject({ bankName: expect.any(String), state: expect.any(String) });

    const balance = await merchant.client.get('/balance');
    expect(balance.body.data).toEqual({ currency: 'BRL', available: approved.netAmount, reserved: 0 });
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
