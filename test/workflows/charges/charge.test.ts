// The charge workflow on the time-skipping test server. The activities are replaced by an in-memory
// Pix route and read model (this is the workflow layer: durable waits, races, retries), and the
// server's clock says when each step ran.
import { WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { ChargeActivities } from '../../../src/charges/activities.js';
import {
  cycleCancelledSignal,
  paymentNotifiedSignal,
  REFRESHES_PER_RUN,
  refreshUpdate,
  type ChargeDraft,
  type ChargeTransactionState,
  type DueDateTerms,
  type PaidAtRoute,
  type RouteChargeState,
} from '../../../src/charges/contract.js';
import {
  acceptUpdate,
  type AcceptOutcome,
  type Refusal,
  type SettleOptions,
  type TransactionStatus,
} from '../../../contracts/transaction.contract.js';
import { eventually } from '../../helpers/eventually.js';
import { FakeRoute } from '../../helpers/fake-route.js';
import { timeSkippingServer } from '../../helpers/time-skipping.js';
import { DRAFT_FINGERPRINT, draftBasics, pendingCharge } from '../../helpers/workflow-drafts.js';
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../../contracts/calendar.js';
import { amountDueOn } from '../../../src/domain/amount-due.js';
import { dueDateExpiresAt } from '../../../src/domain/due-date-validity.js';

const server = timeSkippingServer('src/charges/workflow.ts');
const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

/** An in-memory route and read model behind the charge activities, recording every call with the server's time; openChargeAtRoute is the hand-over. */
class FakeEngine extends FakeRoute {
  routeState: RouteChargeState = { status: 'pending' };
  retriedOn: string[] = [];
  transaction: ChargeTransactionState | null = null;
  createdAtMs = 0;
  /** What the settlement was told: the route's payment, or whether the cancelled charge expired. */
  settledWith: PaidAtRoute | { expired: boolean } | null = null;
  dispatched: string[] = [];
  /** When set, the accept step refuses the charge with it. */
  refusal: Refusal | null = null;
  /** When set, the route answers a state call only once it resolves. */
  routeGate: Promise<void> | null = null;
  /** What PostgreSQL says of a cycleCancelled signal: the cycle's recurrence is cancelled, the cycle not yet due. */
  recurrenceCancelled = false;

  constructor() {
    super(server);
  }

  pay(amountCents = 10_000): PaidAtRoute {
    const paid: PaidAtRoute = {
      status: 'paid',
      paidAt: new Date().toISOString(),
      amountCents,
      payer: { bankName: 'Banco Teste', state: 'RJ' },
    };
    this.routeState = paid;
    return paid;
  }

  /** Settles as asked; the settlement dispatches its event itself when the workflow asks it to (SETTLE_DISPATCHES_EVENTS). */
  private settle(status: TransactionStatus, options?: SettleOptions) {
    this.transaction = { ...this.transaction!, status };
    const eventId = `evt_${this.transaction.id}_${this.transaction.status}`;
    if (options?.dispatch) this.dispatched.push(eventId);
    return { transaction: this.transaction, eventIds: [eventId] };
  }

  activities(): ChargeActivities {
    const persistCharge: ChargeActivities['persistCharge'] = async ({ draft, createdAtMs, ttlSeconds }) => {
      await this.record('persistCharge');
      if (this.refusal) {
        // Slow enough for every request sent meanwhile to join this run.
        await new Promise((resolve) => setTimeout(resolve, 500));
        return { outcome: 'refused', refusal: this.refusal };
      }
      this.createdAtMs = createdAtMs;
      // A due-date charge expires when its validity ends, as src/charges/lifecycle.ts persists it.
      const due = draft.asked?.due;
      this.transaction ??= {
        ...pendingCharge(draft, createdAtMs, ttlSeconds),
        ...(due ? { expiresAtMs: dueDateExpiresAt(due).getTime(), dueDate: due.dueDate } : {}),
      };
      return { outcome: 'persisted', transaction: this.transaction, fingerprint: draft.fingerprint, created: true };
    };
    const openChargeAtRoute: ChargeActivities['openChargeAtRoute'] = async () => {
      await this.recordHandOver('openChargeAtRoute', 'refused');
      this.transaction = { ...this.transaction!, opened: true };
      return this.transaction;
    };
    return {
      persistCharge,
      // As src/charges/lifecycle.ts composes them: an open that fails is left to the workflow's open step.
      persistAndOpenCharge: async (input) => {
        await this.record('persistAndOpenCharge');
        const persisted = await persistCharge(input);
        if (persisted.outcome === 'refused' || persisted.transaction.status !== 'pending' || persisted.transaction.opened) return persisted;
        return { ...persisted, transaction: await openChargeAtRoute(persisted.transaction.id).catch(() => persisted.transaction) };
      },
      openChargeAtRoute,
      chargeStateAtRoute: async () => {
        await this.record('chargeStateAtRoute');
        await this.routeGate;
        return this.routeState;
      },
      cancelChargeAtRoute: async (_id, reason = 'expired') => {
        await this.record('cancelChargeAtRoute');
        if (this.routeState.status === 'pending' || this.routeState.status === 'declined') {
          this.routeState = { status: 'cancelled', expired: reason === 'expired' };
        }
        return this.routeState as Exclude<RouteChargeState, { status: 'pending' }>;
      },
      cycleCancelledByRecurrence: async () => {
        await this.record('cycleCancelledByRecurrence');
        return this.recurrenceCancelled;
      },
      retryCycleAtRoute: async (_id, day) => {
        await this.record('retryCycleAtRoute');
        this.retriedOn.push(day);
        this.routeState = { status: 'pending' };
      },
      settleChargePaid: async (_id, paid, options) => {
        await this.record('settleChargePaid');
        this.settledWith = paid;
        return this.settle('approved', options);
      },
      settleChargeCancelled: async (_id, expired, options) => {
        await this.record('settleChargeCancelled');
        this.settledWith = { expired };
        return this.settle('cancelled', options);
      },
      settleChargeFailed: async (_id, options) => {
        await this.record('settleChargeFailed');
        return this.settle('failed', options);
      },
      dispatchEvent: async (eventId) => {
        await this.record('dispatchEvent');
        this.dispatched.push(eventId);
      },
      confirmChargeAtRoute: async (_id, options) => {
        await this.record('confirmChargeAtRoute');
        await this.routeGate;
        const state = this.routeState;
        if (state.status !== 'paid') return { state };
        // The activity settles through the same settlement as settleChargePaid.
        await this.record('settleChargePaid');
        this.settledWith = state;
        return { state, settled: await this.settle('approved', options) };
      },
    };
  }
}

function draft(): ChargeDraft {
  return {
    ...draftBasics('txn', 'order', { amountCents: 10_000, feeCents: 0, netAmountCents: 10_000 }),
    merchantName: 'Loja',
    splitAmountCents: 0,
    split: [],
    payer: { name: 'Maria da Silva', document: '52998224725' },
    webhookUrl: null,
  };
}

/** What the accept update answers when the charge was not refused. */
type Answered = Exclude<AcceptOutcome, { outcome: 'refused' }>;

/** Starts a charge workflow the way the API does (update-with-start of `accept`) and runs `scenario` while a worker serves it. */
async function withCharge<T>(
  engine: FakeEngine,
  scenario: (run: { accepted: Answered; workflowId: string; result: () => Promise<ChargeTransactionState> }) => Promise<T>,
  chargeDraft = draft(),
): Promise<T> {
  const { worker, taskQueue } = await server.worker('charges', engine.activities());
  const input = { requestId: 'req_1', ttlSeconds: 900, draft: chargeDraft };
  const workflowId = `charge:${input.draft.accountId}:${input.draft.externalId}`;
  return worker.runUntil(async () => {
    const handle = await server.env.client.workflow.start('chargeWorkflow', { taskQueue, workflowId, args: [input] });
    const accepted = await handle.executeUpdate(acceptUpdate, { args: [{ requestId: 'req_1', fingerprint: input.draft.fingerprint }] });
    expect(accepted.outcome).not.toBe('refused');
    return scenario({ accepted: accepted as Answered, workflowId, result: async () => (await handle.result())! });
  });
}

describe('charge workflow (time-skipping)', () => {
  it('accepts the charge, then a payment notification before expiry approves it and the settlement dispatches the event once', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ accepted, workflowId, result }) => {
      expect(accepted).toMatchObject({ outcome: 'created', transaction: { id: engine.transaction!.id, opened: true } });
      const paid = engine.pay();
      await server.env.client.workflow.getHandle(workflowId).signal(paymentNotifiedSignal);
      expect(await result()).toMatchObject({ status: 'approved' });
      expect(engine.settledWith).toEqual(paid);
    });
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(0);
    expect(engine.called('settleChargeCancelled')).toHaveLength(0);
    // A run started after PERSIST_AND_OPEN: persisted and opened by the accept step's one activity.
    expect(engine.called('persistAndOpenCharge')).toHaveLength(1);
    expect(engine.called('openChargeAtRoute')).toHaveLength(1);
    expect(engine.dispatched).toEqual([`evt_${engine.transaction!.id}_approved`]);
    // A run started after SETTLE_DISPATCHES_EVENTS: the settlement dispatched, no dispatchEvent activity.
    expect(engine.called('dispatchEvent')).toHaveLength(0);
  });

  it('expires at exactly 15 minutes of server time', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ result }) => {
      expect(await result()).toMatchObject({ status: 'cancelled' });
    });
    expect(engine.settledWith).toEqual({ expired: true });
    const { createdAtMs } = engine;
    expect(engine.transaction!.expiresAtMs - createdAtMs).toBe(FIFTEEN_MINUTES_MS);
    const [cancel] = engine.called('cancelChargeAtRoute');
    expect(cancel!.atMs - createdAtMs).toBeGreaterThanOrEqual(FIFTEEN_MINUTES_MS);
    expect(cancel!.atMs - createdAtMs).toBeLessThan(FIFTEEN_MINUTES_MS + 1000);
    expect(engine.called('settleChargePaid')).toHaveLength(0);
    expect(engine.dispatched).toEqual([`evt_${engine.transaction!.id}_cancelled`]);
  });

  it('settles as paid, never as cancelled, when the payment won the race against the expiry (the route says paid at cancellation)', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ result }) => {
      const paid = engine.pay(); // paid on the network, but the notification never arrives
      expect((await result()).status).toBe('approved');
      expect(engine.settledWith).toEqual(paid);
    });
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(1);
    expect(engine.called('settleChargeCancelled')).toHaveLength(0);
    expect(engine.called('settleChargePaid')).toHaveLength(1);
  });

  it('ignores a payment notification the route does not confirm, and still expires', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ workflowId, result }) => {
      await server.env.client.workflow.getHandle(workflowId).signal(paymentNotifiedSignal);
      expect((await result()).status).toBe('cancelled');
    });
    expect(engine.settledWith).toEqual({ expired: true });
    // On the simulator the notification is confirmed by the local activity that also settles a paid charge.
    expect(engine.called('confirmChargeAtRoute')).toHaveLength(1);
    expect(engine.called('settleChargePaid')).toHaveLength(0);
  });

  it('refresh asks the route: pending stays pending, paid settles and answers approved', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ workflowId, result }) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      expect((await handle.executeUpdate(refreshUpdate)).status).toBe('pending');
      engine.pay();
      const refreshed = await handle.executeUpdate(refreshUpdate);
      expect(refreshed).toMatchObject({ status: 'approved' });
      expect((await result()).status).toBe('approved');
    });
    expect(engine.called('chargeStateAtRoute')).toHaveLength(2);
    expect(engine.called('settleChargePaid')).toHaveLength(1);
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(0);
  });

  it('refreshes that arrive while one asks the route join it: one route call, its answer shared', async () => {
    const engine = new FakeEngine();
    let openRoute!: () => void;
    engine.routeGate = new Promise((resolve) => (openRoute = resolve));
    await withCharge(engine, async ({ workflowId, result }) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      const accepted = () => handle.startUpdate(refreshUpdate, { waitForStage: WorkflowUpdateStage.ACCEPTED });
      const first = await accepted();
      await eventually(() => engine.called('chargeStateAtRoute').length === 1);
      const joined = await Promise.all([1, 2, 3, 4].map(accepted));
      engine.pay();
      openRoute();
      for (const refresh of [first, ...joined]) expect((await refresh.result()).status).toBe('approved');
      expect((await result()).status).toBe('approved');
    });
    expect(engine.called('chargeStateAtRoute')).toHaveLength(1);
    expect(engine.called('settleChargePaid')).toHaveLength(1);
  });

  it(`takes ${REFRESHES_PER_RUN} refreshes per run and rejects the next (Temporal's 2,000 updates per run are never reached)`, async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ workflowId }) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      for (let taken = 0; taken < REFRESHES_PER_RUN; taken += 20) {
        const batch = await Promise.all(Array.from({ length: 20 }, () => handle.executeUpdate(refreshUpdate)));
        expect(batch.every((t) => t.status === 'pending')).toBe(true);
      }
      await expect(handle.executeUpdate(refreshUpdate)).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
      const events = (await handle.fetchHistory()).events!;
      expect(events.filter((e) => e.workflowTaskFailedEventAttributes)).toEqual([]);
      engine.pay();
      await handle.signal(paymentNotifiedSignal);
      expect((await handle.result())!.status).toBe('approved');
    });
    expect(engine.called('chargeStateAtRoute').length).toBeLessThan(REFRESHES_PER_RUN);
    expect(engine.called('settleChargePaid')).toHaveLength(1);
  }, 120_000);

  it('survives a route outage: the route call is retried until the route answers', async () => {
    const engine = new FakeEngine();
    engine.outage = 4;
    await withCharge(engine, async ({ accepted, workflowId }) => {
      expect(accepted).toMatchObject({ outcome: 'created', transaction: { opened: true } });
      await server.env.client.workflow.getHandle(workflowId).terminate('test done');
    });
    expect(engine.called('openChargeAtRoute')).toHaveLength(5);
  });

  it('marks the charge failed when the route refuses it for good', async () => {
    const engine = new FakeEngine();
    engine.refuses = true;
    await withCharge(engine, async ({ accepted, result }) => {
      expect(accepted).toMatchObject({ transaction: { status: 'failed', opened: false } });
      expect((await result()).status).toBe('failed');
    });
    // Refused in the accept step's activity, then once more by the workflow's own open step, never retried.
    expect(engine.called('openChargeAtRoute')).toHaveLength(2);
    expect(engine.dispatched).toEqual([`evt_${engine.transaction!.id}_failed`]);
  });

  it('answers a second accept with the same fingerprint as a repeat and a different one as a conflict', async () => {
    const engine = new FakeEngine();
    await withCharge(engine, async ({ accepted, workflowId }) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      const repeat = await handle.executeUpdate(acceptUpdate, { args: [{ requestId: 'req_2', fingerprint: DRAFT_FINGERPRINT }] });
      const conflict = await handle.executeUpdate(acceptUpdate, { args: [{ requestId: 'req_3', fingerprint: 'e'.repeat(64) }] });
      expect(accepted).toMatchObject({ outcome: 'created' });
      expect(repeat).toMatchObject({ outcome: 'repeated', transaction: { id: engine.transaction!.id, status: 'pending' } });
      expect(conflict).toEqual({ outcome: 'conflict' });
      await handle.terminate('test done');
    });
    expect(engine.called('persistCharge')).toHaveLength(1);
  });

  it('answers the refusal of the accept step to every request of the key and ends without touching the route', async () => {
    const engine = new FakeEngine();
    engine.refusal = { code: 'kyc_required', message: 'KYC pendente' };
    const { worker, taskQueue } = await server.worker('charges', engine.activities());
    const input = { requestId: 'req_1', ttlSeconds: 900, draft: draft() };
    await worker.runUntil(async () => {
      const handle = await server.env.client.workflow.start('chargeWorkflow', {
        taskQueue,
        workflowId: `charge-refused-${taskQueue}`,
        args: [input],
      });
      const [first, again] = await Promise.all(
        ['req_1', 'req_2'].map((requestId) =>
          handle.executeUpdate(acceptUpdate, { args: [{ requestId, fingerprint: DRAFT_FINGERPRINT }] }),
        ),
      );
      expect(first).toEqual({ outcome: 'refused', refusal: engine.refusal });
      expect(again).toEqual(first);
      expect(await handle.result()).toBeNull();
    });
    expect(engine.called('openChargeAtRoute')).toHaveLength(0);
    expect(engine.dispatched).toEqual([]);
  });
});

describe('due-date charge workflow (time-skipping)', () => {
  const DAY_MS = 86_400_000;
  const serverDay = async (offset = 0) => addDays(saoPauloDate(new Date(await server.env.currentTimeMs())), offset);

  /** R$ 1.000,00 due in 10 days (São Paulo), 2 % fine, 1 % a month, payable 30 days after. */
  async function dueDateDraft(): Promise<ChargeDraft> {
    const base = draft();
    const due: DueDateTerms = {
      dueDate: await serverDay(10),
      billing: {
        validityAfterDue: 30,
        fine: { mode: 'percent', value: 200 },
        interest: { mode: 'percent_per_month', value: 100 },
        discounts: [],
        abatement: null,
      },
    };
    return { ...base, amountCents: 100_000, asked: { amountCents: 100_000, coverFee: false, split: [], due } };
  }

  it('waits 40 days on one durable timer, is paid late for the amount due that day, and settles with it', async () => {
    const engine = new FakeEngine();
    const chargeDraft = await dueDateDraft();
    const due = chargeDraft.asked!.due!;
    let historyEvents = 0;
    await withCharge(
      engine,
      async ({ workflowId, result }) => {
        await server.env.sleep(40 * DAY_MS);
        const paidOn = await serverDay();
        expect(paidOn).toBe(addDays(due.dueDate, 30));
        // 30 days late: 100000 + 2 % fine + 30 days of 1 % a month.
        const amountCents = amountDueOn({ ...due, amountCents: 100_000 }, paidOn);
        expect(amountCents).toBe(103_000);
        const paid = engine.pay(amountCents);
        const handle = server.env.client.workflow.getHandle(workflowId);
        await handle.signal(paymentNotifiedSignal);
        expect(await result()).toMatchObject({ status: 'approved' });
        expect(engine.settledWith).toEqual(paid);
        historyEvents = (await handle.fetchHistory()).events!.length;
      },
      chargeDraft,
    );
    const [settled] = engine.called('settleChargePaid');
    expect(settled!.atMs - engine.createdAtMs).toBeGreaterThanOrEqual(40 * DAY_MS);
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(0);
    // Waiting weeks costs the history nothing: as many events as a charge paid within its 15 minutes.
    expect(historyEvents).toBeLessThan(40);
  });

  it('expires at 00:00 in São Paulo of the day after dueDate + validityAfterDue, cancelled as expired', async () => {
    const engine = new FakeEngine();
    const chargeDraft = await dueDateDraft();
    await withCharge(
      engine,
      async ({ result }) => {
        expect(await result()).toMatchObject({ status: 'cancelled' });
      },
      chargeDraft,
    );
    const expiresAt = startOfSaoPauloDay(addDays(chargeDraft.asked!.due!.dueDate, 31)).getTime();
    expect(engine.transaction!.expiresAtMs).toBe(expiresAt);
    const [cancel] = engine.called('cancelChargeAtRoute');
    expect(cancel!.atMs).toBeGreaterThanOrEqual(expiresAt);
    expect(cancel!.atMs - expiresAt).toBeLessThan(1000);
    expect(engine.settledWith).toEqual({ expired: true });
    expect(engine.dispatched).toEqual([`evt_${engine.transaction!.id}_cancelled`]);
  });
});

describe('recurrence cycle charge workflow (time-skipping)', () => {
  const DAY_MS = 86_400_000;

  /** R$ 99,90 due in 7 days (São Paulo), a cycle of rec_1 with `retryPolicy`. */
  async function cycleDraft(retryPolicy: 'none' | 'three_in_seven_days'): Promise<ChargeDraft> {
    const dueDate = addDays(saoPauloDate(new Date(await server.env.currentTimeMs())), 7);
    const billing = { validityAfterDue: retryPolicy === 'none' ? 0 : 6, fine: null, interest: null, discounts: [], abatement: null };
    return {
      ...draft(),
      amountCents: 9_990,
      asked: { amountCents: 9_990, coverFee: false, split: [], due: { dueDate, billing }, cycle: { recurrenceId: 'rec_1', retryPolicy } },
    };
  }

  /** The payer's bank declines the debit on `day` (the route says so, and tells the workflow). */
  async function declineOn(engine: FakeEngine, workflowId: string, day: string, declined: number): Promise<void> {
    await server.env.sleep(startOfSaoPauloDay(day).getTime() + 3_600_000 - (await server.env.currentTimeMs()));
    engine.routeState = { status: 'declined', declined };
    await server.env.client.workflow.getHandle(workflowId).signal(paymentNotifiedSignal);
    await eventually(() => engine.routeState.status === 'pending' || engine.called('settleChargeFailed').length > 0 || undefined);
  }

  it('a declined debit is retried on the 1st, 3rd and 6th day after the due date, then the cycle fails', async () => {
    const engine = new FakeEngine();
    const chargeDraft = await cycleDraft('three_in_seven_days');
    const dueDate = chargeDraft.asked!.due!.dueDate;
    await withCharge(
      engine,
      async ({ workflowId, result }) => {
        const attempts = [dueDate, addDays(dueDate, 1), addDays(dueDate, 3), addDays(dueDate, 6)];
        for (const [index, day] of attempts.entries()) await declineOn(engine, workflowId, day, index + 1);
        expect(await result()).toMatchObject({ status: 'failed' });
      },
      chargeDraft,
    );
    expect(engine.retriedOn).toEqual([addDays(dueDate, 1), addDays(dueDate, 3), addDays(dueDate, 6)]);
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(1);
    expect(engine.called('settleChargeFailed')).toHaveLength(1);
  });

  it('without a retry policy a declined debit fails the cycle at once', async () => {
    const engine = new FakeEngine();
    const chargeDraft = await cycleDraft('none');
    await withCharge(
      engine,
      async ({ workflowId, result }) => {
        await declineOn(engine, workflowId, chargeDraft.asked!.due!.dueDate, 1);
        expect(await result()).toMatchObject({ status: 'failed' });
      },
      chargeDraft,
    );
    expect(engine.retriedOn).toEqual([]);
  });

  it("its recurrence's cancellation, confirmed in PostgreSQL, cancels a cycle not yet due (not as expired)", async () => {
    const engine = new FakeEngine();
    engine.recurrenceCancelled = true;
    await withCharge(
      engine,
      async ({ workflowId, result }) => {
        await server.env.sleep(DAY_MS);
        await server.env.client.workflow.getHandle(workflowId).signal(cycleCancelledSignal);
        expect(await result()).toMatchObject({ status: 'cancelled' });
      },
      await cycleDraft('none'),
    );
    expect(engine.settledWith).toEqual({ expired: false });
    expect(engine.called('cycleCancelledByRecurrence')).toHaveLength(1);
    expect(engine.called('cancelChargeAtRoute')[0]!.atMs - engine.createdAtMs).toBeLessThan(DAY_MS + 1000);
  });

  it('a cycleCancelled signal PostgreSQL does not confirm changes nothing: the cycle waits and is paid', async () => {
    const engine = new FakeEngine();
    await withCharge(
      engine,
      async ({ workflowId, result }) => {
        const handle = server.env.client.workflow.getHandle(workflowId);
        await handle.signal(cycleCancelledSignal);
        await eventually(() => engine.called('cycleCancelledByRecurrence').length === 1 || undefined);
        engine.pay(9_990);
        await handle.signal(paymentNotifiedSignal);
        expect(await result()).toMatchObject({ status: 'approved' });
      },
      await cycleDraft('none'),
    );
    expect(engine.called('cancelChargeAtRoute')).toHaveLength(0);
  });
});
