// The `TransactionStatus` search attribute as an operator uses it in the Temporal Web UI: one visibility
// query finds the runs of an account whose transaction was refused, approved or failed, on the dev server
// the engine registers it on.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
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
});
