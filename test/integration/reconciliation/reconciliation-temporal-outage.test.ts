// Temporal unreachable while an operator asks for a reconciliation run: the answer is a 503 and the run
// is recorded failed, and the run stays so once Temporal is back: the request stopped sending its start
// when it answered, so no workflow of that run starts behind the operator's back (they ask again).
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconciliationWorkflowId } from '../../../src/reconciliation/contract.js';
import { admin } from '../../helpers/stack.js';
import { stackBehindTemporalRelay } from '../../helpers/temporal-outage.js';
import { historyReader } from '../../helpers/workflow-history.js';

/** OTLP's status code of a span that ended in an error. */
const SPAN_ERROR = 2;

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
    // The engine's call that sent the start has ended, retries and all, so nothing of it can reach Temporal
    // any more; it ended failed, and Temporal, back by then or since, never got the start.
    const workflowId = reconciliationWorkflowId(runs[0]!.id);
    expect((await outage.clientCallEnded('StartWorkflow:reconciliationWorkflow', workflowId)).status).toBe(SPAN_ERROR);
    await expect(temporal.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await sql`select status from reconciliation_runs where id = ${runs[0]!.id}`)[0]!.status).toBe('failed');

    // Asked again once the engine reaches Temporal, a new run starts.
    await outage.engineReachesTemporal();
    const again = await admin(stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
    expect(again.status, again.text).toBe(202);
    expect(again.body.data.id).not.toBe(runs[0]!.id);
  });
});
