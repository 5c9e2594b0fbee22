// The charge and transfer workflows on a remote route (a PSP), on the time-skipping test server: the
// creation/send call runs as a regular activity, and while the transaction is pending the workflow
// polls the route 5 s after the accept step, then 10 s, 20 s, 40 s and once a minute; a signal is acted
// on at once, and the charge's read that finds it paid settles it in the same activity. A run whose
// persist step does not say `remote` (the simulator, and every run recorded before the flag existed)
// schedules exactly what it did before: a local creation call, no polling of a pending charge, the
// transfer's simulator schedule, and no patch marker.
import { Context } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import type { ChargeActivities } from '../../src/charges/activities.js';
import { acceptTransferWith, type TransferActivities } from '../../src/transfers/activities.js';
import {
  CONFIRM_AND_SETTLE,
  DUE_DATE_POLLING,
  DUE_DATE_POLLS_PER_RUN,
  dueDatePollDelayMs,
  paymentNotifiedSignal,
  type ChargeDraft,
  type ChargeTransactionState,
  type PaidAtRoute,
  type RouteChargeState,
} from '../../src/charges/contract.js';
import {
  acceptUpdate,
  LOCAL_SETTLEMENT,
  REMOTE_ROUTE_CALLS,
  remotePollDelayMs,
  type SettleOptions,
  type TransactionState,
  type TransactionStatus,
} from '../../contracts/transaction.contract.js';
import { pollDelayMs, TRANSFER_SETTLES_IN_ACCEPT, type RouteTransferState } from '../../src/transfers/contract.js';
import { timeSkippingServer, TimedCalls } from '../helpers/time-skipping.js';
import { eventTypes, firstAfterSignal, timersBeforeSignal } from '../helpers/workflow-history.js';
import { draftBasics, pendingCharge, pendingTransfer, transferDraft } from '../helpers/workflow-drafts.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../contracts/calendar.js';

const server = timeSkippingServer('workflows/index.ts');
const TTL_SECONDS = 900;

/** Records each activity call with the server's clock and whether it ran as a local activity. */
class Calls extends TimedCalls {
  readonly local = new Map<string, boolean>();

  constructor() {
    super(server);
  }

  protected override async record(name: string): Promise<void> {
    this.local.set(name, Context.current().info.isLocal);
    await super.record(name);
  }

  /** The gaps between successive calls of `name`, and from `fromMs` to the first. */
  gaps(name: string, fromMs: number): number[] {
    const times = this.called(name).map((call) => call.atMs);
    return times.map((t, i) => t - (i === 0 ? fromMs : times[i - 1]!));
  }
}

function settled<S extends TransactionState>(transaction: S, status: TransactionStatus, options?: SettleOptions) {
  expect(options).toEqual({ dispatch: true, firstAttemptNow: true });
  return { transaction: { ...transaction, status }, eventIds: [`evt_${transaction.id}_${status}`] };
}

class ChargeRouteFake extends Calls {
  state: RouteChargeState = { status: 'pending' };
  transaction: ChargeTransactionState | null = null;
  createdAtMs = 0;
  acceptedAtMs = 0;
  /** Whether the cancelled charge expired, as its settlement was told. */
  expired: boolean | null = null;
  /** When set, the route says paid from this status call on (1-based). */
  payAtCall: number | null = null;
  /** When set, the charge is a due-date one, expiring at `expiresAtMs`. */
  due: { dueDate: string; expiresAtMs: number } | null = null;

  constructor(readonly remote: boolean | undefined) {
    super();
  }

  pay(): void {
    const paid: PaidAtRoute = {
      status: 'paid',
      paidAt: new Date().toISOString(),
      amountCents: 10_000,
      payer: {},
      endToEndId: 'E00000000202601011200abcdefghijk',
    };
    this.state = paid;
  }

  activities(): ChargeActivities {
    const fail = () => Promise.reject(new Error('not called in these runs'));
    const chargeStateAtRoute: ChargeActivities['chargeStateAtRoute'] = async () => {
      await this.record('chargeStateAtRoute');
      if (this.called('chargeStateAtRoute').length === this.payAtCall) this.pay();
      return this.state;
    };
    const settleChargePaid: ChargeActivities['settleChargePaid'] = async (_id, _paid, options) => {
      await this.record('settleChargePaid');
      return settled(this.transaction!, 'approved', options);
    };
    const persistCharge: ChargeActivities['persistCharge'] = async ({ draft, createdAtMs, ttlSeconds }) => {
      await this.record('persistCharge');
      this.createdAtMs = createdAtMs;
      this.transaction ??= { ...pendingCharge(draft, createdAtMs, ttlSeconds), ...this.due };
      return {
        outcome: 'persisted',
        transaction: this.transaction,
        fingerprint: draft.fingerprint,
        created: true,
        ...(this.remote === undefined ? {} : { remote: this.remote }),
      };
    };
    const openChargeAtRoute: ChargeActivities['openChargeAtRoute'] = async () => {
      await this.record('openChargeAtRoute');
      this.acceptedAtMs = await server.env.currentTimeMs();
      this.transaction = { ...this.transaction!, opened: true };
      return this.transaction;
    };
    return {
      persistCharge,
      // As src/charges/lifecycle.ts composes them: a remote route is opened by the workflow's own step.
      persistAndOpenCharge: async (input) => {
        const persisted = await persistCharge(input);
        if (
          persisted.outcome === 'refused' ||
          persisted.remote ||
          persisted.transaction.status !== 'pending' ||
          persisted.transaction.opened
        )
          return persisted;
        return { ...persisted, transaction: await openChargeAtRoute(persisted.transaction.id) };
      },
      openChargeAtRoute,
      chargeStateAtRoute,
      // As src/charges/activities.ts composes them: a paid charge is settled in the activity that read the route.
      confirmChargeAtRoute: async (id, options) => {
        await this.record('confirmChargeAtRoute');
        const state = await chargeStateAtRoute(id);
        return state.status === 'paid' ? { state, settled: await settleChargePaid(id, state, options) } : { state };
      },
      cancelChargeAtRoute: async () => {
        await this.record('cancelChargeAtRoute');
        if (this.state.status === 'pending') this.state = { status: 'cancelled', expired: true };
        return this.state as Exclude<RouteChargeState, { status: 'pending' }>;
      },
      retryCycleAtRoute: async () => {
        throw new Error('a charge of these tests is no recurrence cycle');
      },
      cycleCancelledByRecurrence: fail,
      settleChargePaid,
      settleChargeCancelled: async (_id, expired, options) => {
        await this.record('settleChargeCancelled');
        this.expired = expired;
        return settled(this.transaction!, 'cancelled', options);
      },
      settleChargeFailed: fail,
      dispatchEvent: fail,
    };
  }
}

class TransferRouteFake extends Calls {
  /** What the route answers at send, then at each status call (the last answer repeats). */
  answers: RouteTransferState[] = [{ status: 'pending' }];
  transaction: TransactionState | null = null;
  sentAtMs = 0;

  constructor(readonly remote: boolean | undefined) {
    super();
  }

  private next(): RouteTransferState {
    return this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
  }

  activities(): TransferActivities {
    const persistTransfer: TransferActivities['persistTransfer'] = async (draft) => {
      await this.record('persistTransfer');
      this.transaction ??= pendingTransfer(draft);
      return {
        outcome: 'persisted',
        transaction: this.transaction,
        fingerprint: draft.fingerprint,
        created: true,
        ...(this.remote === undefined ? {} : { remote: this.remote }),
      };
    };
    const sendTransferAtRoute: TransferActivities['sendTransferAtRoute'] = async () => {
      await this.record('sendTransferAtRoute');
      this.sentAtMs = await server.env.currentTimeMs();
      return this.next();
    };
    // As src/transfers/lifecycle.ts composes them: a remote route is sent to by the workflow's own step.
    const persistAndSendTransfer: TransferActivities['persistAndSendTransfer'] = async (draft) => {
      const persisted = await persistTransfer(draft);
      if (persisted.outcome === 'refused' || persisted.remote) return persisted;
      return { ...persisted, sent: await sendTransferAtRoute(draft) };
    };
    const settleTransferApproved: TransferActivities['settleTransferApproved'] = async (_id, _settledAt, options) =>
      settled(this.transaction!, 'approved', options);
    const settleTransferFailed: TransferActivities['settleTransferFailed'] = async (_id, _reason, options) =>
      settled(this.transaction!, 'failed', options);
    return {
      // The fake's answers carry no routeRef: nothing is left for rememberRouteRef to write.
      acceptTransfer: acceptTransferWith({
        persistAndSendTransfer,
        settleTransferApproved,
        settleTransferFailed,
        rememberRouteRef: async () => {},
      }),
      persistTransfer,
      persistAndSendTransfer,
      sendTransferAtRoute,
      transferStateAtRoute: async () => {
        await this.record('transferStateAtRoute');
        return this.next();
      },
      settleTransferApproved,
      settleTransferFailed,
      dispatchEvent: () => Promise.reject(new Error('not called in these runs')),
    };
  }
}

function chargeDraft(): ChargeDraft {
  return {
    ...draftBasics('txn', 'order', { amountCents: 10_000, feeCents: 0, netAmountCents: 10_000 }),
    route: 'psp',
    merchantName: 'Loja',
    splitAmountCents: 0,
    split: [],
    payer: { name: 'Maria da Silva', document: '52998224725' },
    webhookUrl: null,
  };
}

interface Run {
  workflowId: string;
  /** The id of the run the workflow started with (later runs follow it after a continue-as-new). */
  firstRunId: string;
  result: () => Promise<TransactionState | null>;
  /** The patch ids of the run's history. */
  patches: () => Promise<string[]>;
}

async function withWorkflow<T>(
  workflowType: string,
  input: { requestId: string; draft: { accountId: string; externalId: string; fingerprint: string } },
  activities: object,
  scenario: (run: Run) => Promise<T>,
): Promise<T> {
  const { worker, taskQueue } = await server.worker('psp', activities);
  const workflowId = `${workflowType}:${input.draft.accountId}:${input.draft.externalId}`;
  return worker.runUntil(async () => {
    const handle = await server.env.client.workflow.start(workflowType, { taskQueue, workflowId, args: [input] });
    expect(
      (await handle.executeUpdate(acceptUpdate, { args: [{ requestId: input.requestId, fingerprint: input.draft.fingerprint }] })).outcome,
    ).toBe('created');
    return scenario({
      workflowId,
      firstRunId: handle.firstExecutionRunId,
      result: () => handle.result() as Promise<TransactionState | null>,
      patches: async () => {
        const { events } = await handle.fetchHistory();
        return (events ?? []).flatMap((event) => {
          const marker = event.markerRecordedEventAttributes;
          if (marker?.markerName !== 'core_patch') return [];
          const data = marker.details?.['patch-data']?.payloads?.[0]?.data;
          return [JSON.parse(Buffer.from(data!).toString('utf8')).id as string];
        });
      },
    });
  });
}

const withCharge = <T>(fake: ChargeRouteFake, scenario: (run: Run) => Promise<T>) =>
  withWorkflow(
    'chargeWorkflow',
    { requestId: 'req_1', ttlSeconds: TTL_SECONDS, draft: chargeDraft() } as never,
    fake.activities(),
    scenario,
  );
const withTransfer = <T>(fake: TransferRouteFake, scenario: (run: Run) => Promise<T>) =>
  withWorkflow('transferWorkflow', { requestId: 'req_1', draft: transferDraft('psp') } as never, fake.activities(), scenario);

/** The remote schedule's first waits: 5 s, 10 s, 20 s, 40 s, then a minute. */
const REMOTE_GAPS = [5000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000];

function expectSchedule(gaps: number[], expected: number[]): void {
  expect(gaps).toHaveLength(expected.length);
  gaps.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(expected[i]!);
    expect(gap).toBeLessThan(expected[i]! + 1000);
  });
}

describe('polling of a remote route (time-skipping)', () => {
  it('charge: created by a regular activity, polled 5 s after acceptance and then backing off to a minute until the route says paid', async () => {
    const fake = new ChargeRouteFake(true);
    const polls = REMOTE_GAPS.length;
    fake.payAtCall = polls;
    await withCharge(fake, async ({ result, patches }) => {
      expect((await result())!.status).toBe('approved');
      expect(await patches()).toContain(REMOTE_ROUTE_CALLS);
      expect(await patches()).toContain(CONFIRM_AND_SETTLE);
      expect(await patches()).not.toContain(LOCAL_SETTLEMENT);
    });
    expect(fake.local.get('openChargeAtRoute')).toBe(false);
    expect(fake.local.get('persistCharge')).toBe(true);
    expect(fake.local.get('chargeStateAtRoute')).toBe(false);
    expect(fake.local.get('settleChargePaid')).toBe(false);
    expectSchedule(fake.gaps('chargeStateAtRoute', fake.acceptedAtMs), REMOTE_GAPS);
    // Each poll one confirmation; only the one that found it paid settled.
    expect(fake.called('confirmChargeAtRoute')).toHaveLength(polls);
    expect(fake.called('settleChargePaid')).toHaveLength(1);
    expect(fake.called('cancelChargeAtRoute')).toHaveLength(0);
  });

  it('charge: a webhook signal is acted on at once, between polls', async () => {
    const fake = new ChargeRouteFake(true);
    await withCharge(fake, async ({ workflowId, result }) => {
      await server.env.sleep(7000); // past the first poll, well before the second
      fake.pay();
      const handle = server.env.client.workflow.getHandle(workflowId);
      await handle.signal(paymentNotifiedSignal);
      expect((await result())!.status).toBe('approved');
      // One poll before the signal; the second read was the signal's doing, before the next poll's timer fired.
      const types = await eventTypes(handle);
      expect(timersBeforeSignal(types)).toBe(1);
      expect(firstAfterSignal(types)).toBe('work');
    });
    expect(fake.called('chargeStateAtRoute')).toHaveLength(2);
  });

  it('charge: the read that finds it paid settles it in the same regular activity (confirm-and-settle), the one activity after the signal', async () => {
    const fake = new ChargeRouteFake(true);
    await withCharge(fake, async ({ workflowId, result, patches }) => {
      await server.env.sleep(7000);
      fake.pay();
      const handle = server.env.client.workflow.getHandle(workflowId);
      await handle.signal(paymentNotifiedSignal);
      expect((await result())!.status).toBe('approved');
      expect(await patches()).toContain(CONFIRM_AND_SETTLE);
      const { events } = await handle.fetchHistory();
      const signalled = (events ?? []).findIndex((event) => event.workflowExecutionSignaledEventAttributes);
      const after = (events ?? []).slice(signalled + 1);
      expect(after.flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? [])).toEqual([
        'confirmChargeAtRoute',
      ]);
      expect(after.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(0);
    });
    expect(fake.called('settleChargePaid')).toHaveLength(1);
    expect(fake.local.get('settleChargePaid')).toBe(false);
  });

  it('charge: polls until the expiry, then cancels at the route exactly at expiresAt', async () => {
    const fake = new ChargeRouteFake(true);
    await withCharge(fake, async ({ result }) => {
      expect(await result()).toMatchObject({ status: 'cancelled' });
    });
    expect(fake.expired).toBe(true);
    const { createdAtMs } = fake;
    const [cancel] = fake.called('cancelChargeAtRoute');
    expect(cancel!.atMs - createdAtMs).toBeGreaterThanOrEqual(TTL_SECONDS * 1000);
    expect(cancel!.atMs - createdAtMs).toBeLessThan(TTL_SECONDS * 1000 + 1000);
    // 5 + 10 + 20 + 40 s, then once a minute until the 900 s expiry.
    const polls = fake.called('chargeStateAtRoute');
    expect(polls).toHaveLength(4 + Math.floor((TTL_SECONDS - 75) / 60));
    expect(polls.every((poll) => poll.atMs < createdAtMs + TTL_SECONDS * 1000)).toBe(true);
  });

  it('charge on the simulator (remote false) and a run recorded before the flag (no remote): local creation, no polling, no remote patch marker; cancelled and settled in local activities', async () => {
    for (const remote of [false, undefined]) {
      const fake = new ChargeRouteFake(remote);
      await withCharge(fake, async ({ result, patches }) => {
        expect((await result())!.status).toBe('cancelled');
        expect(await patches()).not.toContain(REMOTE_ROUTE_CALLS);
        expect(await patches()).not.toContain(CONFIRM_AND_SETTLE);
        expect(await patches()).toContain(LOCAL_SETTLEMENT);
      });
      expect(fake.local.get('openChargeAtRoute')).toBe(true);
      expect(fake.called('chargeStateAtRoute')).toHaveLength(0);
      expect(fake.local.get('cancelChargeAtRoute')).toBe(true);
      expect(fake.local.get('settleChargeCancelled')).toBe(true);
    }
  });

  it('transfer: sent by a regular activity, polled 5 s after the send and then backing off to a minute until the route answers', async () => {
    const fake = new TransferRouteFake(true);
    fake.answers = [
      ...Array.from({ length: REMOTE_GAPS.length }, (): RouteTransferState => ({ status: 'pending' })),
      { status: 'approved', settledAt: '2026-01-01T00:00:00.000Z' },
    ];
    await withTransfer(fake, async ({ result, patches }) => {
      expect((await result())!.status).toBe('approved');
      // A run of TRANSFER_SETTLES_IN_ACCEPT, which holds REMOTE_ROUTE_CALLS without asking it.
      expect(await patches()).toEqual([TRANSFER_SETTLES_IN_ACCEPT]);
    });
    expect(fake.local.get('sendTransferAtRoute')).toBe(false);
    expect(fake.local.get('persistTransfer')).toBe(true);
    expectSchedule(fake.gaps('transferStateAtRoute', fake.sentAtMs), REMOTE_GAPS);
  });

  it('transfer on the simulator (remote false) and a run recorded before the flag: local send and the simulator schedule', async () => {
    for (const remote of [false, undefined]) {
      const fake = new TransferRouteFake(remote);
      fake.answers = [{ status: 'pending' }, { status: 'pending' }, { status: 'pending' }, { status: 'failed', reason: 'NAO_REALIZADO' }];
      await withTransfer(fake, async ({ result, patches }) => {
        expect((await result())!.status).toBe('failed');
        expect(await patches()).not.toContain(REMOTE_ROUTE_CALLS);
      });
      expect(fake.local.get('sendTransferAtRoute')).toBe(true);
      expectSchedule(fake.gaps('transferStateAtRoute', fake.sentAtMs), [pollDelayMs(0), pollDelayMs(1), pollDelayMs(2)]);
    }
  });

  /** A due-date charge on the PSP route, due `days` days from the server's today in São Paulo, payable `validity` days after. */
  async function dueDateFake(days: number, validity: number): Promise<ChargeRouteFake> {
    const fake = new ChargeRouteFake(true);
    const today = saoPauloDate(new Date(await server.env.currentTimeMs()));
    const dueDate = addDays(today, days);
    fake.due = { dueDate, expiresAtMs: startOfSaoPauloDay(addDays(dueDate, validity + 1)).getTime() };
    return fake;
  }

  it('due-date charge: polled at most hourly, continuing as new every week of polls with a small history, until a poll finds it paid', async () => {
    const fake = await dueDateFake(3, 10);
    fake.payAtCall = DUE_DATE_POLLS_PER_RUN + 20;
    await withCharge(fake, async ({ workflowId, firstRunId, result }) => {
      expect((await result())!.status).toBe('approved');
      const first = server.env.client.workflow.getHandle(workflowId, firstRunId);
      const types = await eventTypes(first);
      expect(types.at(-1)).toBe('WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
      expect(types.length).toBeLessThan(2500);
      const { events } = await first.fetchHistory();
      const patchIds = (events ?? []).flatMap((event) => {
        const data = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return data ? [JSON.parse(Buffer.from(data).toString('utf8')).id as string] : [];
      });
      expect(patchIds).toContain(DUE_DATE_POLLING);
    });
    // Two runs, each finding the charge persisted and opened; the first polled DUE_DATE_POLLS_PER_RUN times.
    expect(fake.called('persistCharge')).toHaveLength(2);
    expect(fake.called('openChargeAtRoute')).toHaveLength(1);
    const gaps = fake.gaps('chargeStateAtRoute', fake.acceptedAtMs);
    expect(gaps).toHaveLength(DUE_DATE_POLLS_PER_RUN + 20);
    expectSchedule(gaps.slice(0, 12), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(dueDatePollDelayMs));
    expect(Math.max(...gaps)).toBeLessThan(3_600_000 + 1000);
    // The second run keeps the hourly schedule.
    expectSchedule([gaps[DUE_DATE_POLLS_PER_RUN]!], [3_600_000]);
    expect(fake.called('cancelChargeAtRoute')).toHaveLength(0);
  }, 120_000);

  it('due-date charge: expires at 00:00 in São Paulo after its validity, polled hourly until then', async () => {
    const fake = await dueDateFake(1, 0);
    await withCharge(fake, async ({ result }) => {
      expect(await result()).toMatchObject({ status: 'cancelled' });
    });
    const [cancel] = fake.called('cancelChargeAtRoute');
    expect(cancel!.atMs).toBeGreaterThanOrEqual(fake.due!.expiresAtMs);
    expect(cancel!.atMs - fake.due!.expiresAtMs).toBeLessThan(1000);
    const polls = fake.called('chargeStateAtRoute');
    const hours = (fake.due!.expiresAtMs - fake.acceptedAtMs) / 3_600_000;
    // About one an hour, and a few more in the first hour (5 s, 10 s … 42 min).
    expect(polls.length).toBeGreaterThan(hours - 2);
    expect(polls.length).toBeLessThan(hours + 12);
    expect(fake.expired).toBe(true);
  }, 120_000);

  it('dueDatePollDelayMs: 5 s, doubling, capped at an hour', () => {
    expect([0, 1, 9, 10, 50].map(dueDatePollDelayMs)).toEqual([5000, 10_000, 2_560_000, 3_600_000, 3_600_000]);
  });

  it('remotePollDelayMs: 5 s, doubling, capped at a minute', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(remotePollDelayMs)).toEqual([5000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
  });
});
