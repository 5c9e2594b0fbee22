import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../../src/db/database.js';
import { waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { spawnEngine, startStack, waitWorker, type Stack } from '../../helpers/stack.js';
import { balanceOf, completeTransfer, cpfKeyBody, fund, ledgerEntriesOf, postTransfer } from '../../helpers/transfers.js';

// API and worker as separate processes; the simulated network settles a transfer by itself after 1.5 s.
describe('transfers: settling by itself, and a worker killed mid-transfer', () => {
  let stack: Stack;
  let sql: Sql;
  beforeAll(async () => {
    stack = await startStack({ layout: 'split', env: { SIMULATOR_TRANSFER_DELAY_MS: '1500' } });
    sql = connect(stack.databaseUrl, { max: 2 });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 5 });
    await stack?.stop();
  });

  it('the network approves a pending transfer by itself after SIMULATOR_TRANSFER_DELAY_MS', async () => {
    const merchant = await createMerchant(stack);
    await fund(stack, merchant.client, 30);
    const res = await postTransfer(merchant.client, cpfKeyBody({ amount: 30 }));
    expect(res.status).toBe(201);
    const approved = await waitForStatus(merchant.client, res.body.data.id, 'approved', 15_000);
    expect(Date.parse(approved.approvedAt) - Date.parse(approved.createdAt)).toBeGreaterThanOrEqual(1500);
    expect(await balanceOf(merchant.client)).toEqual({ available: 0, reserved: 0 });
  });

  it('a worker killed mid-transfer loses nothing: a new worker settles both the answer given meanwhile and the one the network reached by itself', async () => {
    const [alice, bob] = [await createMerchant(stack, { fees: { transfer: { fixed: 1, percent: 0 } } }), await createMerchant(stack)];
    await fund(stack, alice.client, 50);
    await fund(stack, bob.client, 50);
    const toApprove = (await postTransfer(alice.client, cpfKeyBody({ amount: 20 }))).body.data;
    const toFail = (await postTransfer(bob.client, cpfKeyBody({ amount: 20 }))).body.data;
    expect([toApprove.status, toFail.status]).toEqual(['pending', 'pending']);

    const worker = stack.processes.find((p) => p.role === 'worker')!;
    await worker.kill();
    // The operator fails one transfer while no worker runs: the network records it and the signal waits in Temporal.
    const failedMeanwhile = await completeTransfer(stack, toFail.id, 'failed');
    expect(failedMeanwhile.status).toBe(202);
    expect(failedMeanwhile.body.data.status).toBe('pending');
    // The network's own deadline for the other passes (it approves it when next asked); with no worker the engine has not moved.
    await eventually(
      async () =>
        (await sql`select 1 from simulator_transfers where transaction_id = ${toApprove.id} and created_at + interval '1500 ms' <= now()`)
          .length > 0,
      10_000,
    );
    expect((await alice.client.get(`/transactions/${toApprove.id}`)).body.data.status).toBe('pending');
    expect(await balanceOf(alice.client)).toEqual({ available: 30, reserved: 20 });

    const replacement = spawnEngine('worker', stack.env);
    stack.processes.push(replacement);
    await waitWorker(replacement);
    await waitForStatus(alice.client, toApprove.id, 'approved', 20_000);
    await waitForStatus(bob.client, toFail.id, 'failed', 20_000);
    expect(await balanceOf(alice.client)).toEqual({ available: 30, reserved: 0 });
    expect(await balanceOf(bob.client)).toEqual({ available: 50, reserved: 0 });
    const fees = (await ledgerEntriesOf(sql, toApprove.id)).filter((e) => e.account === 'platform:fee_revenue');
    expect(fees).toEqual([{ key: `transfer:${toApprove.id}:settle`, account: 'platform:fee_revenue', amount: 100 }]);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});
