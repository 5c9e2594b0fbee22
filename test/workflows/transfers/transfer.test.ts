// The transfer workflow on the time-skipping test server. The activities are replaced by an
// in-memory Pix route and read model (this is the workflow layer: the network's answer by signal or
// by polling, retries, refusals), and the server's clock says when each step ran.
import { WithStartWorkflowOperation } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { acceptTransferWith, type TransferActivities } from '../../../src/transfers/activities.js';
import { networkAnsweredSignal, pollDelayMs, POLLS_PER_RUN, type RouteTransferState } from '../../../src/transfers/contract.js';
import {
  acceptUpdate,
  type AcceptOutcome,
  type Persisted,
  type SettleOptions,
  type TransactionState,
  type TransactionStatus,
} from '../../../contracts/transaction.contract.js';
import { FakeRoute } from '../../helpers/fake-route.js';
import { timeSkippingServer } from '../../helpers/time-skipping.js';
import { DRAFT_FINGERPRINT, pendingTransfer, transferDraft } from '../../helpers/workflow-drafts.js';
import { eventTypes, firstAfterSignal, timersBeforeSignal } from '../../helpers/workflow-history.js';

const server = timeSkippingServer('src/transfers/workflow.ts');

/** An in-memory route and read model behind the transfer activities, recording every call with the server's time; sendTransferAtRoute is the hand-over. */
class FakeNetwork extends FakeRoute {
  transaction: TransactionState | null = null;
  /** The route's settlement time the approval was settled with. */
  settledAt: string | null = null;
  dispatched: string[] = [];
  refusal: Persisted | null = null;
  /** Approvals that fail before one succeeds. */
  settleOutage = 0;
  /** What the route answers at send, then at each status call (the last answer repeats). */
  answers: RouteTransferState[] = [{ status: 'pending' }];

  constructor() {
    super(server);
  }

  private next(): RouteTransferState {
    return this.answers.length > 1 ? this.answers.shift()! : this.answers[0]!;
  }

  /** Settles as asked; the settlement dispatches its event itself when the workflow asks it to (SETTLE_DISPATCHES_EVENTS). */
  private settle(status: TransactionStatus, options?: SettleOptions) {
    this.transaction = { ...this.transaction!, status };
    const eventId = `evt_${this.transaction.id}_${this.transaction.status}`;
    if (options?.dispatch) this.dispatched.push(eventId);
    return { transaction: this.transaction, eventIds: [eventId] };
  }

  activities(): TransferActivities {
    const persistTransfer: TransferActivities['persistTransfer'] = async (draft) => {
      await this.record('persistTransfer');
      if (this.refusal) return this.refusal;
      const created = this.transaction === null;
      this.transaction ??= pendingTransfer(draft);
      return { outcome: 'persisted', transaction: this.transaction, fingerprint: draft.fingerprint, created };
    };
    const sendTransferAtRoute: TransferActivities['sendTransferAtRoute'] = async () => {
      await this.recordHandOver('sendTransferAtRoute', 'invalid_pix_key');
      return this.next();
    };
    // As src/transfers/lifecycle.ts composes them: a send that fails is left to the workflow's send step.
    const persistAndSendTransfer: TransferActivities['persistAndSendTransfer'] = async (draft) => {
      const persisted = await persistTransfer(draft);
      if (persisted.outcome === 'refused' || persisted.transaction.status !== 'pending') return persisted;
      return sendTransferAtRoute(draft).then(
        (sent) => ({ ...persisted, sent }),
        () => persisted,
      );
    };
    const settleTransferApproved: TransferActivities['settleTransferApproved'] = async (_id, settledAt, options) => {
      await this.record('settleTransferApproved');
      if (this.settleOutage-- > 0) throw new Error('database unavailable');
      this.settledAt = settledAt;
      return this.settle('approved', options);
    };
    const settleTransferFailed: TransferActivities['settleTransferFailed'] = async (_id, _reason, options) => {
      await this.record('settleTransferFailed');
      return this.settle('failed', options);
    };
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
      dispatchEvent: async (eventId) => {
        await this.record('dispatchEvent');
        this.dispatched.push(eventId);
      },
    };
  }
}

const APPROVED: RouteTransferState = { status: 'approved', settledAt: '2026-01-01T00:00:00.000Z' };

/** Starts a transfer workflow the way the API does (update-with-start of `accept`) and runs `scenario` while a worker serves it. */
async function withTransfer<T>(
  network: FakeNetwork,
  scenario: (run: {
    accepted: AcceptOutcome;
    workflowId: string;
    startedAtMs: number;
    result: () => Promise<TransactionState | null>;
  }) => Promise<T>,
): Promise<T> {
  const { worker, taskQueue } = await server.worker('transfers', network.activities());
  const input = { requestId: 'req_1', draft: transferDraft() };
  const workflowId = `transfer:${input.draft.accountId}:${input.draft.externalId}`;
  return worker.runUntil(async () => {
    const startedAtMs = await server.env.currentTimeMs();
    // Delivered with the start, as the API does: a run that settles within its first task (on a route that
    // answers at once, all in local activities) must still answer the request that started it.
    const startWorkflowOperation = new WithStartWorkflowOperation('transferWorkflow', {
      taskQueue,
      workflowId,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const accepted = await server.env.client.workflow.executeUpdateWithStart(acceptUpdate, {
      args: [{ requestId: 'req_1', fingerprint: input.draft.fingerprint }],
      startWorkflowOperation,
    });
    const handle = await startWorkflowOperation.workflowHandle();
    return scenario({ accepted, workflowId, startedAtMs, result: () => handle.result() as Promise<TransactionState | null> });
  });
}

describe('transfer workflow (time-skipping)', () => {
  it('answers the accept once the route holds the transfer; the network signal settles it approved without waiting for a poll', async () => {
    const network = new FakeNetwork();
    network.answers = [{ status: 'pending' }, APPROVED];
    await withTransfer(network, async ({ accepted, workflowId, result }) => {
      expect(accepted).toMatchObject({ outcome: 'created', transaction: { status: 'pending' } });
      expect(network.called('sendTransferAtRoute')).toHaveLength(1);
      const handle = server.env.client.workflow.getHandle(workflowId);
      await handle.signal(networkAnsweredSignal);
      expect(await result()).toEqual({ id: network.transaction!.id, status: 'approved' });
      expect(network.settledAt).toBe(APPROVED.settledAt);
      // The confirmation was the signal's doing: no poll timer fired before the workflow acted on it.
      const types = await eventTypes(handle);
      expect(timersBeforeSignal(types)).toBe(0);
      expect(firstAfterSignal(types)).toBe('work');
    });
    expect(network.called('transferStateAtRoute')).toHaveLength(1);
    expect(network.called('settleTransferFailed')).toHaveLength(0);
    expect(network.dispatched).toEqual([`evt_${network.transaction!.id}_approved`]);
    // A run started after SETTLE_DISPATCHES_EVENTS: the settlement dispatched, no dispatchEvent activity.
    expect(network.called('dispatchEvent')).toHaveLength(0);
  });

  it('without any signal, polls the route every second and then backs off, until the network answers', async () => {
    const network = new FakeNetwork();
    const polls = 14;
    network.answers = [...Array.from({ length: polls }, (): RouteTransferState => ({ status: 'pending' })), APPROVED];
    await withTransfer(network, async ({ result }) => {
      expect((await result())!.status).toBe('approved');
    });
    const times = network.called('transferStateAtRoute').map((call) => call.atMs);
    expect(times).toHaveLength(polls);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(pollDelayMs(i + 1));
      expect(gap).toBeLessThan(pollDelayMs(i + 1) + 1000);
    });
    expect(pollDelayMs(0)).toBe(1000);
    expect(pollDelayMs(12)).toBe(4000);
    expect(pollDelayMs(100)).toBe(60_000);
  });

  it('a failed answer releases: settleTransferFailed once and the failed event', async () => {
    const network = new FakeNetwork();
    network.answers = [{ status: 'pending' }, { status: 'failed', reason: 'failed_by_operator' }];
    await withTransfer(network, async ({ result }) => {
      expect((await result())!.status).toBe('failed');
    });
    expect(network.called('settleTransferFailed')).toHaveLength(1);
    expect(network.called('settleTransferApproved')).toHaveLength(0);
    expect(network.dispatched).toEqual([`evt_${network.transaction!.id}_failed`]);
  });

  it('a route that settles at once (an internal payment) needs no wait at all: settled in the accepting task, shown once', async () => {
    const network = new FakeNetwork();
    network.answers = [APPROVED];
    await withTransfer(network, async ({ accepted, workflowId, result }) => {
      expect(accepted).toMatchObject({ outcome: 'created', transaction: { status: 'pending' } });
      expect((await result())!.status).toBe('approved');
      const types = await eventTypes(server.env.client.workflow.getHandle(workflowId));
      expect(types.filter((type) => type === 'WORKFLOW_TASK_COMPLETED')).toHaveLength(1);
      expect(types.filter((type) => type === 'MARKER_RECORDED')).toHaveLength(2); // the patch, the accept step
      expect(types).not.toContain('TIMER_STARTED');
      const statusUpserts = types.filter((type) => type === 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES');
      expect(statusUpserts).toHaveLength(2); // the patch's version, then the final status
    });
    expect(network.called('transferStateAtRoute')).toHaveLength(0);
    expect(network.called('settleTransferApproved')).toHaveLength(1);
    expect(network.dispatched).toEqual([`evt_${network.transaction!.id}_approved`]);
  });

  it('a settlement that fails in the accept step is made by the workflow’s own settle step, once', async () => {
    const network = new FakeNetwork();
    network.answers = [APPROVED];
    network.settleOutage = 1;
    await withTransfer(network, async ({ accepted, result }) => {
      expect(accepted).toMatchObject({ outcome: 'created', transaction: { status: 'pending' } });
      expect((await result())!.status).toBe('approved');
    });
    expect(network.called('persistTransfer')).toHaveLength(1);
    expect(network.called('settleTransferApproved')).toHaveLength(2);
    expect(network.called('transferStateAtRoute')).toHaveLength(0);
    expect(network.dispatched).toEqual([`evt_${network.transaction!.id}_approved`]);
  });

  it('a route that refuses the destination for good fails the transfer without polling', async () => {
    const network = new FakeNetwork();
    network.refuses = true;
    await withTransfer(network, async ({ accepted, result }) => {
      expect(accepted.outcome).toBe('created');
      expect((await result())!.status).toBe('failed');
    });
    // Refused in the accept step's activity, then once more by the workflow's own send step, never retried.
    expect(network.called('sendTransferAtRoute')).toHaveLength(2);
    expect(network.called('transferStateAtRoute')).toHaveLength(0);
    expect(network.called('settleTransferFailed')).toHaveLength(1);
  });

  it('survives a route outage at send: retried until the route takes it', async () => {
    const network = new FakeNetwork();
    network.outage = 3;
    network.answers = [APPROVED];
    await withTransfer(network, async ({ accepted, result }) => {
      expect(accepted.outcome).toBe('created');
      expect((await result())!.status).toBe('approved');
    });
    expect(network.called('sendTransferAtRoute')).toHaveLength(4);
  });

  it('a refused acceptance answers the refusal and ends without sending anything', async () => {
    const network = new FakeNetwork();
    network.refusal = { outcome: 'refused', refusal: { code: 'WITHDRAWAL_IN_PROGRESS', message: 'Já existe uma transferência pendente' } };
    await withTransfer(network, async ({ accepted, result }) => {
      expect(accepted).toEqual(network.refusal);
      expect(await result()).toBeNull();
    });
    expect(network.called('sendTransferAtRoute')).toHaveLength(0);
  });

  it('answers a second accept with the same fingerprint as a repeat and a different one as a conflict', async () => {
    const network = new FakeNetwork();
    await withTransfer(network, async ({ accepted, workflowId }) => {
      const handle = server.env.client.workflow.getHandle(workflowId);
      const repeat = await handle.executeUpdate(acceptUpdate, { args: [{ requestId: 'req_2', fingerprint: DRAFT_FINGERPRINT }] });
      const conflict = await handle.executeUpdate(acceptUpdate, { args: [{ requestId: 'req_3', fingerprint: 'e'.repeat(64) }] });
      expect(accepted).toEqual({ outcome: 'created', transaction: { id: network.transaction!.id, status: 'pending' } });
      expect(repeat).toEqual({ outcome: 'repeated', transaction: { id: network.transaction!.id, status: 'pending' } });
      expect(conflict).toEqual({ outcome: 'conflict' });
      await handle.terminate('test done');
    });
    expect(network.called('persistTransfer')).toHaveLength(1);
  });

  it(`continues as new after ${POLLS_PER_RUN} polls of a long wait and still settles once`, async () => {
    const network = new FakeNetwork();
    network.answers = [...Array.from({ length: POLLS_PER_RUN + 5 }, (): RouteTransferState => ({ status: 'pending' })), APPROVED];
    await withTransfer(network, async ({ workflowId, result }) => {
      expect((await result())!.status).toBe('approved');
      const { executions } = await server.env.client.workflowService.listClosedWorkflowExecutions({
        namespace: server.env.namespace ?? 'default',
        maximumPageSize: 10,
        executionFilter: { workflowId },
      });
      expect(executions.length).toBeGreaterThanOrEqual(2);
    });
    expect(network.called('persistTransfer')).toHaveLength(2);
    expect(network.called('settleTransferApproved')).toHaveLength(1);
    expect(network.dispatched).toHaveLength(1);
  });
});
