// The daily run of each route (books.md): a worker's start creates the Temporal Schedule
// `reconcile:<route>` at RECONCILE_AT in America/Sao_Paulo, and a later start with another time updates
// the same schedule; a run the schedule starts reconciles the day before, in São Paulo.
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encryptingDataConverter } from '../../../src/temporal/codec/data-converter.js';
import { previousLocalDay } from '../../../src/reconciliation/window.js';
import { eventually } from '../../helpers/eventually.js';
import { poll } from '../../helpers/probe.js';
import { testPayloadKeys } from '../../helpers/payload-keys.js';
import { admin, startStack, type Stack } from '../../helpers/stack.js';

let temporal: Client;
/** Every stack a test started: stopped after the file (a test stops those it is done with itself). */
const stacks: Stack[] = [];
const SCHEDULE = 'reconcile:simulator';

const start = async (reconcileAt: string) => {
  const stack = await startStack({ env: { RECONCILE_AT: reconcileAt } });
  stacks.push(stack);
  return stack;
};

async function scheduleAt(hour: number, minute: number, taskQueue: string) {
  return eventually(async () => {
    // Not created yet is the only "not yet": any other failure of the read fails the wait.
    const described = await temporal.schedule
      .getHandle(SCHEDULE)
      .describe()
      .catch((err: unknown) => {
        if (err instanceof ScheduleNotFoundError) return undefined;
        throw err;
      });
    const calendar = described?.spec.calendars?.[0];
    const at = calendar && [calendar.hour?.[0]?.start, calendar.minute?.[0]?.start];
    return at?.[0] === hour && at?.[1] === minute && described!.action.taskQueue === taskQueue ? described : undefined;
  }, 30_000);
}

beforeAll(async () => {
  temporal = new Client({
    connection: await Connection.connect({ address: inject('temporalAddress') }),
    dataConverter: encryptingDataConverter(testPayloadKeys()),
  });
});

afterAll(async () => {
  await Promise.all(stacks.map((stack) => stack.stop()));
  await temporal?.schedule
    .getHandle(SCHEDULE)
    .delete()
    .catch(() => {});
  await temporal?.connection.close();
});

describe('the reconciliation schedule of a route', () => {
  it('is created at a worker start, at RECONCILE_AT in São Paulo, and updated by a later start', async () => {
    const first = await start('05:30');
    const created = await scheduleAt(5, 30, first.taskQueue);
    expect(created.spec.timezone).toBe('America/Sao_Paulo');
    expect(created.action).toMatchObject({ type: 'startWorkflow', workflowType: 'reconciliationWorkflow', args: [{ route: 'simulator' }] });
    expect(created.policies.overlap).toBe('SKIP');
    await first.stop();

    const second = await start('06:15');
    await scheduleAt(6, 15, second.taskQueue);
    await second.stop();
  });

  it('starts a run over the day before, in São Paulo', async () => {
    // Its own worker: the schedule starts its runs on the task queue of the latest worker started.
    const stack = await start('04:45');
    await scheduleAt(4, 45, stack.taskQueue);
    await temporal.schedule.getHandle(SCHEDULE).trigger();
    const run = await poll(
      () => admin(stack, 'GET', '/reconciliations?route=simulator'),
      (listed) => {
        const found = listed.body.data[0];
        if (found?.status === 'failed') throw new Error(`the run failed: ${listed.text}`);
        return found?.status === 'completed' ? found : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const expected = previousLocalDay(new Date(run.startedAt));
    expect([run.from, run.to]).toEqual([expected.from.toISOString(), expected.to.toISOString()]);
    expect(run.counts).toMatchObject({ pspReceived: 0, matched: 0, open: 0 });
  });
});
