// The `TransactionStatus` search attribute as an operator uses it in the Temporal Web UI: one visibility
// query finds the runs of an account whose transaction was refused, approved, failed or refunded, or
// whose recurrence is pending, active or cancelled, on the dev server the engine registers it on.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { eventually } from '../helpers/eventually.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { admin, ADMIN_TOKEN, http } from '../helpers/stack.js';
import { completeTransfer, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';

const live = liveStack();
let temporal: Client;

beforeAll(async () => {
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
});
afterAll(() => temporal.connection.close());

/** The workflow ids a visibility query finds, once it finds `count` of them. */
async function found(query: string, count: number): Promise<string[]> {
  return eventually(
    async () => {
      const ids: string[] = [];
      for await (const run of temporal.workflow.list({ query })) ids.push(run.workflowId);
      return ids.length === count && ids.sort();
    },
    30_000,
    250,
  );
}

describe('TransactionStatus search attribute', () => {
  it("finds an account's refused transfer, its approved charge and its failed transfer by status", async () => {
    const { account, client } = await createMerchant(live.stack);
    const refused = await postTransfer(client, cpfKeyBody({ amount: 50 }), 'refused-transfer');
    expect(refused.status, refused.text).toBe(422);

    const byStatus = (status: string) => `AccountId = '${account.id}' AND TransactionStatus = '${status}'`;
    expect(await found(byStatus('refused'), 1)).toEqual([`transfer:${account.id}:refused-transfer`]);

    await fund(live.stack, client, 30);
    const transfer = await postTransfer(client, cpfKeyBody({ amount: 10 }), 'failing-transfer');
    expect(transfer.status, transfer.text).toBe(201);
    expect(await found(`${byStatus('pending')} AND TransactionId = '${transfer.body.data.id}'`, 1)).toHaveLength(1);
    expect((await completeTransfer(live.stack, transfer.body.data.id, 'failed')).status).toBeLessThan(300);
    expect(await found(byStatus('failed'), 1)).toEqual([`transfer:${account.id}:failing-transfer`]);

    const charge = await createCharge(client, {}, 'paid-charge');
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(client, charge.id, 'approved');
    // The funding charge and this one.
    const approved = await found(byStatus('approved'), 2);
    expect(approved).toContain(`charge:${account.id}:paid-charge`);
    expect(await found(byStatus('pending'), 0)).toEqual([]);
  });

  it('shows a fully refunded charge on the refund that completed it, and a partial refund as approved', async () => {
    const { account, client } = await createMerchant(live.stack);
    const charge = await createCharge(client, { amount: 30 }, 'refunded-charge');
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(client, charge.id, 'approved');
    const refund = async (amount: number, key: string) => {
      const res = await http('POST', `${live.stack.adminUrl}/transactions/${charge.id}/refunds`, {
        body: { amount, reason: 'pedido do cliente' },
        token: ADMIN_TOKEN,
        headers: { 'idempotency-key': key },
      });
      expect(res.status, res.text).toBe(201);
    };
    // A refund's run carries its charge's TransactionId: the charge's runs are one filter.
    const byStatus = (status: string) =>
      `AccountId = '${account.id}' AND TransactionId = '${charge.id}' AND TransactionStatus = '${status}'`;

    await refund(10, 'partial-refund');
    expect(await found(byStatus('approved'), 2)).toEqual([`charge:${account.id}:refunded-charge`, `refund:${account.id}:partial-refund`]);
    await refund(20, 'last-refund');
    expect(await found(byStatus('refunded'), 1)).toEqual([`refund:${account.id}:last-refund`]);
    await waitForStatus(client, charge.id, 'refunded');
  });

  it("keeps a recurrence's run at the recurrence's status: pending authorization, active, cancelled", async () => {
    const { account, client, key } = await createMerchant(live.stack);
    const body = {
      payer: { name: 'Maria da Silva', document: CPF.valid },
      contract: 'CTR-1',
      description: 'Academia',
      frequency: 'monthly',
      firstDueDate: addDays(saoPauloDate(new Date()), 40),
      amount: 50,
    };
    const created = await client.post('/recurrences', body, { 'Idempotency-Key': 'status-recurrence' });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id as string;
    const run = [`recurrence:${account.id}:status-recurrence`];
    const byStatus = (status: string) => `AccountId = '${account.id}' AND TransactionStatus = '${status}' AND TransactionId = '${id}'`;

    expect(await found(byStatus('pending_authorization'), 1)).toEqual(run);
    expect((await admin(live.stack, 'POST', `/simulator/recurrences/${id}/authorize`)).status).toBeLessThan(300);
    expect(await found(byStatus('active'), 1)).toEqual(run);
    expect((await http('DELETE', `${live.stack.baseUrl}/recurrences/${id}`, { token: key })).status).toBe(200);
    expect(await found(byStatus('cancelled'), 1)).toEqual(run);
  });
});
