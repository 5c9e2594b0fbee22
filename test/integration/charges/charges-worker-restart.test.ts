// A crash in the middle of charges: the worker process is killed (SIGKILL) with one charge waiting to
// be accepted and one waiting for payment; a new worker picks both up and they finish correctly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeBody, createCharge, newKey, payCharge, postCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { spawnEngine, startStack, waitWorker, type Stack } from '../../helpers/stack.js';

describe('charges across a worker crash', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ layout: 'split', env: { ACCEPT_WAIT_MS: '1500' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('finishes a charge created before the crash and one requested while no worker ran', async () => {
    const { client } = await createMerchant(stack, { fees: { charge: { fixed: 1, percent: 0 } } });
    const before = await createCharge(client, { amount: 80 });

    await stack.processes[1]!.kill();
    const paidWhileDown = await payCharge(stack, before.id);
    expect(paidWhileDown.status).toBe(200);

    const key = newKey('down');
    const during = await postCharge(client, chargeBody({ amount: 20 }), key);
    expect(during.status).toBe(202);
    // Not persisted yet: the preview, priced by the account's rules as the accept step will price it.
    expect(during.body.data).toMatchObject({ status: 'pending', pix: null, amount: 20, fee: 1, netAmount: 19 });

    const worker = spawnEngine('worker', stack.env);
    stack.processes.push(worker);
    await waitWorker(worker);

    await waitForStatus(client, before.id, 'approved');
    const accepted = await eventually(async () => {
      const res = await client.get(`/transactions/${key}`);
      return res.body.data.pix ? res.body.data : undefined;
    }, 20_000);
    expect(accepted).toMatchObject({ id: during.body.data.id, fee: 1, netAmount: 19 });
    expect((await payCharge(stack, accepted.id)).status).toBe(200);
    await waitForStatus(client, accepted.id, 'approved');

    expect((await client.get('/balance')).body.data).toEqual({ currency: 'BRL', available: 98, reserved: 0 });
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
