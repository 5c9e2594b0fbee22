// Temporal unreachable while a transfer is requested: no 202 (nothing would be under way) but a 503
// that reserves nothing; once Temporal is back, the same key creates the transfer, and a key that is not
// repeated stays without one (the answered request does not go on sending its start). The engine
// reaches Temporal through a local TCP relay that the test cuts and restores.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferWorkflowId } from '../../../src/transfers/contract.js';
import { newKey } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { stackBehindTemporalRelay } from '../../helpers/temporal-outage.js';
import { balanceOf, cpfKeyBody, fund, postTransfer } from '../../helpers/transfers.js';
import { historyReader } from '../../helpers/workflow-history.js';

/** OTLP's status code of a span that ended in an error. */
const SPAN_ERROR = 2;

describe('transfers while Temporal is unreachable', () => {
  const outage = stackBehindTemporalRelay({ ACCEPT_WAIT_MS: '1000', SIMULATOR_TRANSFER_DELAY_MS: '-1' });
  let temporalReader: Client;
  beforeAll(async () => {
    temporalReader = await historyReader();
  });
  afterAll(async () => {
    await temporalReader?.connection.close();
  });

  it('answers 503 internal_error with nothing reserved, then creates the transfer with the same key once Temporal is back', async () => {
    const { stack, sql, temporal } = outage;
    const { client, account } = await createMerchant(stack);
    await fund(stack, client, 20);
    await temporal.cut();
    const key = newKey('outage');
    const refused = await postTransfer(client, cpfKeyBody(), key);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toEqual({ code: 'internal_error', message: expect.stringMatching(/mesma chave/) });
    expect((await sql`select count(*)::int as n from transactions where account_id = ${account.id} and direction = 'out'`)[0]!.n).toBe(0);
    expect(await balanceOf(client)).toEqual({ available: 20, reserved: 0 });

    await temporal.open();
    const created = await eventually(
      async () => {
        const res = await postTransfer(client, cpfKeyBody(), key);
        return [200, 201].includes(res.status) ? res : undefined;
      },
      60_000,
      500,
    );
    expect(created.body.data).toMatchObject({ externalId: key, status: 'pending', amount: 10 });
    expect(await balanceOf(client)).toEqual({ available: 10, reserved: 10 });
  });

  it('does not create the transfer of a 503 that is not repeated: the request stopped sending its start when it answered', async () => {
    const { stack, sql, temporal } = outage;
    const { client, account } = await createMerchant(stack);
    await fund(stack, client, 20);
    await temporal.cut();
    const key = newKey('abandoned');
    const refused = await postTransfer(client, cpfKeyBody(), key);
    expect(refused.status).toBe(503);
    await temporal.open();
    // The engine's call that sent the start has ended, retries and all, so nothing of it can reach Temporal
    // any more; it ended failed, and Temporal, back by then or since, never got the start.
    const workflowId = transferWorkflowId(account.id, key);
    expect((await outage.clientCallEnded('UpdateWithStartWorkflow:accept', workflowId)).status).toBe(SPAN_ERROR);
    await expect(temporalReader.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await sql`select count(*)::int as n from transactions where account_id = ${account.id} and direction = 'out'`)[0]!.n).toBe(0);
    expect(await balanceOf(client)).toEqual({ available: 20, reserved: 0 });
    // Once the engine reaches Temporal again, a new request of the account goes through.
    await outage.engineReachesTemporal();
    // 202 when its accept step takes longer than ACCEPT_WAIT_MS (1 s here) on a busy machine: it is created either way.
    const after = await postTransfer(client, cpfKeyBody(), newKey('after'));
    expect([201, 202], after.text).toContain(after.status);
    await eventually(
      async () =>
        (await sql`select count(*)::int as n from transactions where account_id = ${account.id} and direction = 'out'`)[0]!.n === 1,
      20_000,
    );
  });
});
