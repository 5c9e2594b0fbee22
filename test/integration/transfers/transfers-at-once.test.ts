// SIMULATOR_TRANSFER_DELAY_MS=0: the simulated network settles a transfer in its answer to the
// hand-over, as it does a devolução, so the workflow settles in the local activity that accepted it
// (transfer-settles-in-accept), with no poll (no timer) and no signal, and writes the network's
// reference with the settlement. The balance and the ledger end as after any approved transfer.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { transferWorkflowId } from '../../../src/transfers/contract.js';
import { newKey } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { balanceOf, cpfKeyBody, fund, ledgerEntriesOf, postTransfer, settledTransferEntries } from '../../helpers/transfers.js';
import { eventTypes } from '../../helpers/workflow-history.js';

const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '0' } });

describe('transfers on a network that settles at once', () => {
  let temporal: Client;
  beforeAll(async () => {
    temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  });
  afterAll(async () => {
    await temporal?.connection.close();
  });

  it('settles approved in the accept step: one local activity, no timer, no signal', async () => {
    const merchant = await createMerchant(live.stack, { fees: { transfer: { fixed: 1, percent: 0 } } });
    await fund(live.stack, merchant.client, 25);
    const key = newKey('t');
    const res = await postTransfer(merchant.client, cpfKeyBody({ amount: 25 }), key);
    expect(res.status, res.text).toBe(201);
    const handle = temporal.workflow.getHandle(transferWorkflowId(merchant.account.id, key));
    // The run's result is encrypted (payload codec): its end is read from Temporal, its transfer from the API.
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 15_000);

    // Two markers: the patch's and the one local activity's (a task held longer by a loaded machine is heartbeated, so tasks are not counted).
    const types = await eventTypes(handle);
    expect(types.filter((type) => type === 'MARKER_RECORDED')).toHaveLength(2);
    expect(types).not.toContain('ACTIVITY_TASK_SCHEDULED');
    expect(types).not.toContain('TIMER_STARTED');
    expect(types).not.toContain('WORKFLOW_EXECUTION_SIGNALED');
    expect((await merchant.client.get(`/transactions/${res.body.data.id}`)).body.data.status).toBe('approved');
    // The network's end-to-end id, written by the settlement (reconciliation matches the PSP's records by it).
    const [refs] = await live.sql<{ kept: string | null; network: string }[]>`
      select t.processor_ref as kept, s.end_to_end_id as network
      from transactions t join simulator_transfers s on s.transaction_id = t.id where t.id = ${res.body.data.id}`;
    expect(refs!.kept).toMatch(/^E/);
    expect(refs!.kept).toBe(refs!.network);
    expect(await balanceOf(merchant.client)).toEqual({ available: 0, reserved: 0 });
    expect(await ledgerEntriesOf(live.sql, res.body.data.id)).toEqual(
      settledTransferEntries(res.body.data.id, merchant.account.id, 2500, 2400),
    );
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
