// Temporal unreachable while an operator asks for a reconciliation run: the answer is a 503 and the run
// is recorded failed, and the run stays so once Temporal is back: the request stopped sending its start
// when it answered, so no workflow of that run starts behind the operator's back (they ask again).
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconciliationWorkflowId } from '../../contracts/reconciliation.contract.js';
import { admin } from '../helpers/stack.js';
import { stackBehindTemporalRelay } from '../helpers/temporal-outage.js';
import { historyReader } from '../helpers/workflow-history.js';

describe('a reconciliation run asked for while Temporal is unreachable', () => {
  const outage = stackBehindTemporalRelay({ ACCEPT_WAIT_MS: '1000' });
  let temporal: Client;
  beforeAll(async () => {
    temporal = await historyReader();
  });
  afterAll(async () => {
    await temporal?.connection.close();
  });

  it('answers 503, records the run failed, and starts no workflow for it once Temporal is back', async () => {
    const { stack, sql } = outage;
    const window = { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() };
    await outage.temporal.cut();
    const refused = await admin(stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body.error.code).toBe('internal_error');
    const runs = await sql<{ id: string; status: string }[]>`select id, status from reconciliation_runs`;
    expect(runs).toEqual([{ id: expect.any(String), status: 'failed' }]);

    await outage.temporal.open();
    // Longer than the Temporal client's next retries of an unreachable server (at most 5 s apart).
    await sleep(8000);
    const described = temporal.workflow.getHandle(reconciliationWorkflowId(runs[0]!.id)).describe();
    await expect(described).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await sql`select status from reconciliation_runs where id = ${runs[0]!.id}`)[0]!.status).toBe('failed');

    // Asked again with Temporal back, a new run starts.
    const again = await admin(stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
    expect(again.status, again.text).toBe(202);
    expect(again.body.data.id).not.toBe(runs[0]!.id);
  });
});
