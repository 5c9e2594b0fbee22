// The admin simulator answers what it committed, whatever fails after the commit: a database read
// that times out right after the network recorded a payment or a transfer's answer must not turn
// into a 500 (the client's retry would then be told "already paid / already completed"). A repeat of
// a transfer's completion with the same outcome answers the transfer again; the other outcome is a 409.
import { describe, expect, it } from 'vitest';
import { connect } from '../../src/db/database.js';
import { createCharge, hasStatus, newKey, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { withReadsFailingAfterCommit } from '../helpers/fail-after-commit.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { poll } from '../helpers/probe.js';
import { recurrenceBody } from '../helpers/recurrences.js';
import { admin } from '../helpers/stack.js';
import { completeTransfer, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';

describe('admin simulator after its commit', () => {
  const live = liveStack({ env: { DATABASE_STATEMENT_TIMEOUT_MS: '1500', SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

  async function withFault<T>(table: string, transactionId: string, request: () => Promise<T>): Promise<T> {
    const sql = connect(live.stack.databaseUrl, { max: 3 });
    try {
      return await withReadsFailingAfterCommit(
        sql,
        { updated: { table, column: 'transaction_id', value: transactionId }, readAfter: 'transactions' },
        request,
      );
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  it('pay answers the paid charge even when the read after the payment fails', async () => {
    const { client } = await createMerchant(live.stack);
    const charge = await createCharge(client, { amount: 7 });
    const paid = await withFault('simulator_charges', charge.id, () => payCharge(live.stack, charge.id));
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data).toMatchObject({ transactionId: charge.id, status: 'paid', amount: 7 });
    // The engine missed the notification (its read failed too): asking the network settles the charge.
    await poll(() => client.get(`/transactions/${charge.id}?refresh=true`), hasStatus('approved'), { timeoutMs: 20_000, everyMs: 200 });
  });

  it('complete answers the transfer (202 while the engine has not settled it), a repeat answers it again, the other outcome is 409', async () => {
    const { client } = await createMerchant(live.stack);
    await fund(live.stack, client, 20);
    const transfer = (await postTransfer(client, cpfKeyBody())).body.data;
    await eventually(
      async () => (await live.sql`select 1 from simulator_transfers where transaction_id = ${transfer.id}`).length > 0,
      20_000,
    );

    const answered = await withFault('simulator_transfers', transfer.id, () => completeTransfer(live.stack, transfer.id, 'approved'));
    expect(answered.status, answered.text).toBe(202);
    expect(answered.body.data).toMatchObject({ id: transfer.id, status: 'pending' });

    const repeated = await poll(
      () => completeTransfer(live.stack, transfer.id, 'approved'),
      (res) => res,
      { notYet: [202], timeoutMs: 30_000, everyMs: 200 },
    );
    expect(repeated.body.data).toMatchObject({ id: transfer.id, status: 'approved' });

    const other = await completeTransfer(live.stack, transfer.id, 'failed');
    expect(other.status).toBe(409);
    expect(other.body.error.message).toMatch(/já foi concluída.*approved/);
  });

  it('a retried payment tells the engine again: a charge whose notification was lost is approved long before it expires', async () => {
    const { client } = await createMerchant(live.stack);
    const charge = await createCharge(client, { amount: 9 });
    // The network takes the payment but the engine never hears of it (the api died in between).
    await live.sql`update simulator_charges set status = 'paid', paid_at = now(), payer = '{}'::jsonb where transaction_id = ${charge.id}`;
    const retried = await payCharge(live.stack, charge.id);
    expect([retried.status, retried.body.error?.code]).toEqual([409, 'charge_already_paid']);
    await waitForStatus(client, charge.id, 'approved', 10_000);
  });

  it('a retried payment of a first payment (journey 3) authorizes its recurrence when the first attempt did not', async () => {
    const { client } = await createMerchant(live.stack);
    const created = await client.post('/recurrences', recurrenceBody({ firstPayment: { amount: 19.9 } }), {
      'Idempotency-Key': newKey('rec'),
    });
    expect(created.status, created.text).toBe(201);
    const { id: recurrenceId, firstPaymentTransactionId: chargeId } = created.body.data;
    // Paid at the network, and the api died before it told the engine or authorized the recurrence.
    await live.sql`update simulator_charges set status = 'paid', paid_at = now(), payer = '{}'::jsonb where transaction_id = ${chargeId}`;
    const retried = await payCharge(live.stack, chargeId);
    expect([retried.status, retried.body.error?.code]).toEqual([409, 'charge_already_paid']);
    await waitForStatus(client, chargeId, 'approved', 10_000);
    await poll(
      () => client.get(`/recurrences/${recurrenceId}`),
      (res) => res.body.data.status === 'active' || undefined,
      { timeoutMs: 10_000 },
    );
  });

  it('a retried decline tells the engine again: a cycle whose debit failed unheard fails long before it expires', async () => {
    const { client } = await createMerchant(live.stack);
    const created = await client.post('/recurrences', recurrenceBody(), { 'Idempotency-Key': newKey('rec') });
    expect(created.status, created.text).toBe(201);
    const recurrenceId: string = created.body.data.id;
    expect((await admin(live.stack, 'POST', `/simulator/recurrences/${recurrenceId}/authorize`)).status).toBe(200);
    const cycleId = await eventually(async () => {
      const [cycle] = await live.sql<{ id: string }[]>`
        select t.id from transactions t join simulator_charges s on s.transaction_id = t.id where t.recurrence_id = ${recurrenceId}`;
      return cycle?.id;
    }, 20_000);
    // The payer's bank declines the debit but the engine never hears of it (the api died in between).
    await live.sql`update simulator_charges set declined_attempts = 1 where transaction_id = ${cycleId}`;
    const retried = await admin(live.stack, 'POST', `/simulator/charges/${cycleId}/decline`);
    expect([retried.status, retried.body.error?.code]).toEqual([409, 'attempt_already_declined']);
    await waitForStatus(client, cycleId, 'failed', 10_000);
  });
});
