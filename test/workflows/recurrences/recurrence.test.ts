// The recurrence workflow on the time-skipping test server, over more than a year of monthly cycles:
// the authorization (and its expiry), each cycle's charge created RECURRENCE_LEAD_DAYS before its due
// date (inside the standard's 2–10-day window), continue-as-new, the end date and the completion, and
// a cancellation between cycles. The activities are an in-memory read model; the server's clock says
// when each step ran.
import { describe, expect, it } from 'vitest';
import type { RecurrenceActivities } from '../../../src/recurrences/activities.js';
import {
  changeUpdate,
  cycleDueDate,
  CYCLES_PER_RUN,
  recurrenceNotifiedSignal,
  type RecurrenceStatus,
  type RecurrenceTransition,
  type RecurrenceWorkflowInput,
} from '../../../src/recurrences/contract.js';
import { addDays, daysBetween, saoPauloDate, startOfSaoPauloDay } from '../../../contracts/calendar.js';
import { TimedCalls, timeSkippingServer } from '../../helpers/time-skipping.js';

const server = timeSkippingServer('src/recurrences/workflow.ts');
const DAY_MS = 86_400_000;

/** A step ran when its timer fired: at `expectedMs`, within the second the server takes to run it. */
function expectAt(atMs: number, expectedMs: number): void {
  expect(atMs - expectedMs).toBeGreaterThanOrEqual(0);
  expect(atMs - expectedMs).toBeLessThan(1000);
}

class FakeRecurrences extends TimedCalls {
  status: RecurrenceStatus = 'pending_authorization';
  transitions: RecurrenceTransition['change'][] = [];
  cycles: { dueDate: string; atMs: number }[] = [];
  /** A remote route's answer (RECURRENCE_AT_ROUTE): what GET /rec shows, and what its withdrawal answers. */
  atRoute: RecurrenceTransition | null = null;
  withdrawnAtRoute: RecurrenceTransition | null = null;

  constructor() {
    super(server);
  }

  activities(): RecurrenceActivities {
    const to: Record<RecurrenceTransition['change'], RecurrenceStatus> = {
      authorize: 'active',
      reject: 'rejected',
      expire: 'expired',
      cancel: 'cancelled',
      complete: 'completed',
    };
    return {
      transitionRecurrence: async (_id, transition) => {
        await this.record('transitionRecurrence');
        this.transitions.push(transition.change);
        this.status = to[transition.change];
        return this.status;
      },
      createCycleCharge: async ({ dueDate }) => {
        await this.record('createCycleCharge');
        this.cycles.push({ dueDate, atMs: this.calls.at(-1)!.atMs });
      },
      cancelCycleCharges: async () => {
        await this.record('cancelCycleCharges');
        return 1;
      },
      cyclesSettled: async () => {
        await this.record('cyclesSettled');
        return true;
      },
      recurrenceTransitionAtRoute: async () => {
        await this.record('recurrenceTransitionAtRoute');
        return this.atRoute;
      },
      cancelRecurrenceAtRoute: async (_id, intent) => {
        await this.record('cancelRecurrenceAtRoute');
        return this.withdrawnAtRoute ?? (intent === 'expire' ? { change: 'expire' } : { change: 'cancel', by: 'merchant' });
      },
    };
  }
}

async function inputFrom(overrides: Partial<RecurrenceWorkflowInput> = {}): Promise<RecurrenceWorkflowInput> {
  const nowMs = await server.env.currentTimeMs();
  const today = saoPauloDate(new Date(nowMs));
  return {
    recurrenceId: 'rec_000000000000000000000001',
    accountId: 'acc_000000000000000000000001',
    frequency: 'monthly',
    firstDueDate: addDays(today, 31),
    endDate: null,
    fixedAmount: true,
    leadDays: 7,
    authorizationExpiresAtMs: nowMs + 7 * DAY_MS,
    ...overrides,
  };
}

async function run<T>(fake: FakeRecurrences, input: RecurrenceWorkflowInput, scenario: (workflowId: string) => Promise<T>): Promise<T> {
  const { worker, taskQueue } = await server.worker('recurrences', fake.activities());
  const workflowId = `recurrence:${input.accountId}:${input.recurrenceId}`;
  await server.env.client.workflow.start('recurrenceWorkflow', { taskQueue, workflowId, args: [input] });
  return worker.runUntil(() => scenario(workflowId));
}

describe('recurrence workflow (time-skipping)', () => {
  it('over 14 monthly cycles: authorized, each cycle created 7 days before its due date, continued as new, completed past the end date', async () => {
    const fake = new FakeRecurrences();
    const input = await inputFrom();
    const cycles = 14;
    input.endDate = cycleDueDate(input.firstDueDate, 'monthly', cycles - 1);
    await run(fake, input, async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      expect(await handle.executeUpdate(changeUpdate, { args: [{ change: 'authorize' }] })).toBe('active');
      const firstRunId = (await handle.describe()).runId;
      expect(await handle.result()).toBe('completed');
      // The run that ended is not the first: the recurrence continued as new after CYCLES_PER_RUN cycles.
      expect((await handle.describe()).runId).not.toBe(firstRunId);
      const firstRun = await server.env.client.workflow.getHandle(workflowId, firstRunId).fetchHistory();
      expect(firstRun.events!.at(-1)!.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
      expect(firstRun.events!.length).toBeLessThan(250);
    });
    expect(fake.cycles.map((c) => c.dueDate)).toEqual(
      Array.from({ length: cycles }, (_, i) => cycleDueDate(input.firstDueDate, 'monthly', i)),
    );
    expect(CYCLES_PER_RUN).toBeLessThan(cycles);
    for (const { dueDate, atMs } of fake.cycles) {
      expectAt(atMs, startOfSaoPauloDay(addDays(dueDate, -7)).getTime());
      const lead = daysBetween(saoPauloDate(new Date(atMs)), dueDate);
      expect(lead).toBeGreaterThanOrEqual(2);
      expect(lead).toBeLessThanOrEqual(10);
    }
    expect(fake.transitions).toEqual(['authorize', 'complete']);
    // Completed once the last cycle's retries were over (7 days), after its settlement was checked.
    const [settled] = fake.called('cyclesSettled');
    expectAt(settled!.atMs, startOfSaoPauloDay(addDays(input.endDate, 8)).getTime());
  });

  it('creates the cycle at once when authorized inside its lead window, and skips one closer than 2 days', async () => {
    const fake = new FakeRecurrences();
    const nowMs = await server.env.currentTimeMs();
    const input = await inputFrom({
      firstDueDate: addDays(saoPauloDate(new Date(nowMs)), 4),
      endDate: addDays(saoPauloDate(new Date(nowMs)), 40),
    });
    await run(fake, input, async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      await server.env.sleep(3 * DAY_MS); // authorized the day before the first due date
      await handle.executeUpdate(changeUpdate, { args: [{ change: 'authorize' }] });
      expect(await handle.result()).toBe('completed');
    });
    expect(fake.cycles.map((c) => c.dueDate)).toEqual([cycleDueDate(input.firstDueDate, 'monthly', 1)]);
  });

  it('expires when the payer does not answer within the authorization days', async () => {
    const fake = new FakeRecurrences();
    const input = await inputFrom();
    await run(fake, input, async (workflowId) => {
      expect(await server.env.client.workflow.getHandle(workflowId).result()).toBe('expired');
    });
    expect(fake.transitions).toEqual(['expire']);
    expectAt(fake.called('transitionRecurrence')[0]!.atMs, input.authorizationExpiresAtMs);
    expect(fake.cycles).toEqual([]);
  });

  it('a cancellation between cycles cancels the cycles not yet due and creates no other', async () => {
    const fake = new FakeRecurrences();
    const input = await inputFrom();
    await run(fake, input, async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      await handle.executeUpdate(changeUpdate, { args: [{ change: 'authorize' }] });
      // Past the second cycle's creation day, before the third's.
      const secondCreatedMs = startOfSaoPauloDay(addDays(cycleDueDate(input.firstDueDate, 'monthly', 1), -7)).getTime();
      await server.env.sleep(secondCreatedMs + 5 * DAY_MS - (await server.env.currentTimeMs()));
      expect(await handle.executeUpdate(changeUpdate, { args: [{ change: 'cancel', by: 'merchant' }] })).toBe('cancelled');
      await expect(handle.executeUpdate(changeUpdate, { args: [{ change: 'authorize' }] })).rejects.toThrow();
      expect(await handle.result()).toBe('cancelled');
    });
    expect(fake.cycles).toHaveLength(2);
    expect(fake.transitions).toEqual(['authorize', 'cancel']);
    expect(fake.called('cancelCycleCharges')).toHaveLength(1);
  });

  it('the payer rejects: no cycle, no timer left', async () => {
    const fake = new FakeRecurrences();
    await run(fake, await inputFrom(), async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      expect(await handle.executeUpdate(changeUpdate, { args: [{ change: 'reject' }] })).toBe('rejected');
      expect(await handle.result()).toBe('rejected');
    });
    expect(fake.cycles).toEqual([]);
  });

  it('on a remote route: the expiry is asked of the route', async () => {
    const expiring = new FakeRecurrences();
    const input = await inputFrom({ remote: true });
    await run(expiring, input, async (workflowId) => {
      expect(await server.env.client.workflow.getHandle(workflowId).result()).toBe('expired');
    });
    expect(expiring.called('cancelRecurrenceAtRoute')).toHaveLength(1);
    expectAt(expiring.called('cancelRecurrenceAtRoute')[0]!.atMs, input.authorizationExpiresAtMs);
  });

  it("on a remote route: the route's answer, asked when notified and on a schedule, decides", async () => {
    const fake = new FakeRecurrences();
    const input = await inputFrom({ remote: true });
    await run(fake, input, async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      await server.env.sleep(60_000);
      expect(fake.transitions).toEqual([]);
      fake.atRoute = { change: 'authorize' };
      await handle.signal(recurrenceNotifiedSignal);
      await server.env.sleep(1000);
      expect(fake.transitions).toEqual(['authorize']);
      // The payer's cancellation at the route, seen by the daily poll without any webhook.
      fake.atRoute = { change: 'cancel', by: 'payer' };
      expect(await handle.result()).toBe('cancelled');
    });
    expect(fake.transitions).toEqual(['authorize', 'cancel']);
    expect(fake.called('cancelRecurrenceAtRoute')).toEqual([]);
  });

  it("on a remote route: a merchant's cancellation the route answers with the payer's rejection is a rejection", async () => {
    const fake = new FakeRecurrences();
    await run(fake, await inputFrom({ remote: true }), async (workflowId) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      fake.withdrawnAtRoute = { change: 'reject' };
      expect(await handle.executeUpdate(changeUpdate, { args: [{ change: 'cancel', by: 'merchant' }] })).toBe('rejected');
      expect(await handle.result()).toBe('rejected');
    });
  });
});
