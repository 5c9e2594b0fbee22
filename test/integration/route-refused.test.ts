// A route that refuses for good (here: the account names a route the engine does not have) ends the
// operation as failed at once, without retrying: the activity's RouteRefused reaches the workflow
// under its own type, which the transaction activities' retry policy does not retry (the history
// records its first attempt as the last). A charge fails with nothing posted; a transfer fails and its
// reservation goes back to the available balance.
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { balanceOf, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';
import { historyReader, localActivityFailures } from '../helpers/workflow-history.js';

describe('a route that refuses for good', () => {
  const live = liveStack();
  let temporal: Client;
  beforeAll(async () => {
    temporal = await historyReader();
  });
  afterAll(async () => {
    await temporal?.connection.close();
  });

  async function postingsOf(transactionId: string): Promise<number> {
    const [row] = await live.sql<{ count: bigint }[]>`select count(*) from ledger_postings where transaction_id = ${transactionId}`;
    return Number(row!.count);
  }

  it('fails a charge at once, with nothing posted', async () => {
    const { client, account } = await createMerchant(live.stack);
    await live.sql`update accounts set route = 'gone' where id = ${account.id}`;
    const created = await createCharge(client);
    const failed = created.status === 'failed' ? created : await waitForStatus(client, created.id, 'failed', 10_000);
    expect(failed).toMatchObject({ status: 'failed', acquirer: 'gone', pix: null });
    const run = temporal.workflow.getHandle(`charge:${account.id}:${created.externalId}`);
    expect(await localActivityFailures(run)).toEqual([{ activityType: 'openChargeAtRoute', attempt: 1, failureType: 'RouteRefused' }]);
    expect(await postingsOf(created.id)).toBe(0);
  });

  it('fails a transfer at once and releases its reservation', async () => {
    const { client, account } = await createMerchant(live.stack);
    await fund(live.stack, client, 50);
    await live.sql`update accounts set route = 'gone' where id = ${account.id}`;
    const res = await postTransfer(client, cpfKeyBody({ amount: 10 }));
    expect(res.status).toBe(201);
    const failed = await waitForStatus(client, res.body.data.id, 'failed', 10_000);
    expect(failed.counterparty).toMatchObject({ failureReason: 'no Pix transfer route named gone' });
    const run = temporal.workflow.getHandle(`transfer:${account.id}:${res.body.data.externalId}`);
    expect(await localActivityFailures(run)).toEqual([{ activityType: 'sendTransferAtRoute', attempt: 1, failureType: 'RouteRefused' }]);
    expect(await balanceOf(client)).toEqual({ available: 50, reserved: 0 });
  });
});
