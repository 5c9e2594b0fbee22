// Many `?refresh=true` calls on one pending charge, in parallel over several keys (as a security probe
// did): every answer is the charge (200) or a retryable 503 with Retry-After, never a 500; the refreshes
// coalesce (fewer updates reach the workflow than calls were made, and it never asks the route twice
// at once); the charge's workflow task never fails; the charge can still be paid and settles once.
// REFRESH_STORM_CALLS=2200 replays the probe's size: before refreshes coalesced, every call was an
// update, and past Temporal's 2,000 updates per run they answered 500 and the workflow task failed.
import { Client, Connection } from '@temporalio/client';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createCharge, payCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { client, createAccount, createKey } from '../../helpers/fixtures.js';
import { liveStack } from '../../helpers/live-stack.js';
import type { HttpResult } from '../../helpers/stack.js';

const live = liveStack();

const REFRESHES = Number(process.env.REFRESH_STORM_CALLS ?? 240);
const PARALLEL = 12;
/** The key quota is 100 requests a minute: each key takes at most 80 refreshes. */
const KEYS = Math.ceil(REFRESHES / 80);

describe('refresh storm on one pending charge', () => {
  let clients: Array<ReturnType<typeof client>>;
  let temporal: Client;

  beforeAll(async () => {
    const account = await createAccount(live.stack);
    clients = await Promise.all(
      Array.from({ length: KEYS }, async () => client(live.stack, (await createKey(live.stack, account.id)).key)),
    );
    temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  });

  it('answers the charge or 503 with Retry-After, never 500, the workflow task never fails, and the charge still settles once', async () => {
    const charge = await createCharge(clients[0]!, {}, `storm-${Date.now()}`);
    const answers: HttpResult[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < REFRESHES) {
          const call = next++;
          answers.push(await clients[call % KEYS]!.get(`/transactions/${charge.id}?refresh=true`));
        }
      }),
    );

    const byStatus = new Map<number, number>();
    for (const res of answers) byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
    const unexpected = answers.filter((res) => res.status !== 200 && res.status !== 503);
    expect(unexpected.map((res) => `${res.status} ${res.text}`).slice(0, 3), JSON.stringify([...byStatus])).toEqual([]);
    for (const res of answers.filter((r) => r.status === 200)) expect(res.body.data).toMatchObject({ id: charge.id, status: 'pending' });
    for (const res of answers.filter((r) => r.status === 503)) {
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body).toMatchObject({ success: false, error: { code: 'internal_error' } });
    }

    const handle = temporal.workflow.getHandle(await workflowIdOf(charge.id));
    const events = (await handle.fetchHistory()).events!;
    const failedTasks = events.filter((e) => e.workflowTaskFailedEventAttributes);
    expect(failedTasks.map((e) => e.workflowTaskFailedEventAttributes!.failure?.message)).toEqual([]);
    const updates = events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'refresh');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.length).toBeLessThan(REFRESHES);
    expect(mostRouteCallsAtOnce(events)).toBe(1);

    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(clients[0]!, charge.id, 'approved');
    const settled =
      await live.sql`select count(*)::int as n from events where transaction_id = ${charge.id} and type = 'transaction.approved'`;
    expect(settled[0]!.n).toBe(1);
    // The read model shows the approval before the run has closed: wait for it to close, then it must have completed.
    const closed = await eventually(async () => {
      const status = (await handle.describe()).status.name;
      return status === 'RUNNING' ? undefined : status;
    }, 20_000);
    expect(closed).toBe('COMPLETED');
  }, 240_000);

  /** The most chargeStateAtRoute activities the history shows scheduled and not yet closed at once. */
  function mostRouteCallsAtOnce(
    events: Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>['events'] & {},
  ): number {
    const routeCalls = new Set<string>();
    let open = 0;
    let most = 0;
    for (const e of events) {
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'chargeStateAtRoute') {
        routeCalls.add(String(e.eventId));
        most = Math.max(most, ++open);
      }
      const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      if (closed && routeCalls.has(String(closed.scheduledEventId))) open -= 1;
    }
    return most;
  }

  async function workflowIdOf(transactionId: string): Promise<string> {
    const [row] = await live.sql`select account_id, external_id from transactions where id = ${transactionId}`;
    return `charge:${row!.account_id}:${row!.external_id}`;
  }
});
