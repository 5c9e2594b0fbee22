// The committed histories cover both sides of every patch: runs recorded before
// `settle-dispatches-events` settle, then dispatch each event in a dispatchEvent activity; runs
// recorded after it carry the patch marker and settle in one activity that dispatched its events.
// Runs on a remote route recorded after `remote-route-calls` carry its marker and create or send at
// the route in a regular activity; every other run does it in a local one. Simulator charges recorded
// after `local-settlement` carry its marker and ask the route and settle in local activities. Charges
// recorded after `persist-and-open` carry its marker first and accept in one local activity,
// persistAndOpenCharge, which opens a simulator charge itself. Charges recorded after
// `coalesced-refresh` carry its marker at their first refresh, and refreshes accepted together share
// one route call. Runs forged after `refuse-unencrypted-input` (a start, an update, a signal in clear)
// carry its marker where the message was refused; no other run does. A due-date charge on a remote
// route recorded after `due-date-polling` carries its marker; no other run does. Transfers recorded after
// `transfer-local-steps` carry its marker first and accept in one local activity, persistAndSendTransfer,
// which sends a simulator transfer itself; on the simulator they then ask the route and settle in local
// activities. Charges on a remote route recorded after `confirm-and-settle` carry its marker and settle in
// the regular activity that read the route (confirmChargeAtRoute).
// Transfers recorded after `transfer-settles-in-accept` carry its marker alone and accept in acceptTransfer,
// which settles a transfer the route answered at the hand-over: one local activity, one workflow task.
// Recurrences on a PSP route recorded after `recurrence-at-route` carry its marker first and take the
// payer's answers from the route; their cycle charges open, read and retry their cobr at the route.
// A cycle charge told bare of its recurrence's cancellation was recorded on both sides of
// `cycle-cancellation-confirmed`: before it the bare signal cancelled the cycle, after it the run carries the
// marker and asks PostgreSQL first (cycleCancelledByRecurrence), cancelling only on the cancellation's own signal.
// Runs that continue as new were recorded after every patch above, on the time-skipping server (`-continue-as-new-`):
// a due-date charge on a PSP route and a recurrence run by run, and a cycle retried over the recurrence's continue-as-new.
// replay.test.ts replays them all against today's code.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  COALESCED_REFRESH,
  CONFIRM_AND_SETTLE,
  CYCLE_CANCELLATION_CONFIRMED,
  LOCAL_CONFIRM_AND_SETTLE,
  DUE_DATE_POLLING,
  DUE_DATE_POLLS_PER_RUN,
  dueDatePollDelayMs,
  RECURRENCE_CYCLES,
} from '../../src/charges/contract.js';
import { PAYLOAD_NOT_ENCRYPTED, REFUSE_UNENCRYPTED_INPUT } from '../../contracts/payload-encryption.contract.js';
import {
  RECURRENCE_STATUS_SEARCH_ATTRIBUTE,
  REFUNDED_CHARGE_STATUS,
  TRANSACTION_STATUS_SEARCH_ATTRIBUTE,
} from '../../contracts/transaction-status.contract.js';
import { LOCAL_SETTLEMENT, PERSIST_AND_OPEN, REMOTE_ROUTE_CALLS, SETTLE_DISPATCHES_EVENTS } from '../../contracts/transaction.contract.js';
import { TRANSFER_LOCAL_STEPS, TRANSFER_SETTLES_IN_ACCEPT } from '../../src/transfers/contract.js';
import { CYCLES_PER_RUN, RECURRENCE_AT_ROUTE } from '../../src/recurrences/contract.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');

interface FailureJson {
  message: string;
  applicationFailureInfo?: { type: string; nonRetryable?: boolean };
}

interface HistoryEvent {
  eventType: string;
  workflowExecutionFailedEventAttributes?: { failure: FailureJson };
  workflowExecutionUpdateCompletedEventAttributes?: { outcome: { failure?: FailureJson } };
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  markerRecordedEventAttributes?: { markerName: string; details?: Record<string, { payloads: Array<{ data: string }> }> };
  workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest: { input: { name: string } } };
  workflowExecutionSignaledEventAttributes?: { signalName: string };
  timerStartedEventAttributes?: { startToFireTimeout: { seconds?: string } };
}

function scheduledActivities(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType.name] : []));
}

function localActivities(events: HistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map(
      (e) =>
        JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['data']!.payloads[0]!.data, 'base64').toString('utf8'))
          .activity_type,
    );
}

function patchIds(events: HistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .map(
      (e) =>
        JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads[0]!.data, 'base64').toString('utf8')).id,
    );
}

const labelled = (label: string) => (h: { file: string }) => h.file.includes(`-${label}-`);

const allHistories = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({ file, events: (JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')) as { events: HistoryEvent[] }).events }));
/** Runs forged by someone without the payload keys (REFUSE_UNENCRYPTED_INPUT): described on their own below. */
const forgedRuns = allHistories.filter(labelled(REFUSE_UNENCRYPTED_INPUT));
const histories = allHistories.filter((h) => /^(charge|transfer)-/.test(h.file) && !forgedRuns.includes(h));
const remoteRuns = histories.filter((h) => h.file.includes('-psp-'));
const localSettlementRuns = histories.filter(labelled(LOCAL_SETTLEMENT));
const persistAndOpenRuns = histories.filter(labelled(PERSIST_AND_OPEN));
/** Recorded after every patch before it: they carry all of them. */
const coalescedRefreshRuns = histories.filter(labelled(COALESCED_REFRESH));
/** Recorded after the patches above too: they carry them all. */
const statusAttributeRuns = histories.filter(labelled(TRANSACTION_STATUS_SEARCH_ATTRIBUTE));
/** Recorded after the patches above too. */
const transferLocalStepsRuns = histories.filter(labelled(TRANSFER_LOCAL_STEPS));
/** Transfers recorded after every patch above: they carry this one's marker alone. */
const settlesInAcceptRuns = histories.filter(labelled(TRANSFER_SETTLES_IN_ACCEPT));
/** Recurrences and their cycle charges on a PSP route, recorded after RECURRENCE_AT_ROUTE. */
const recurrenceAtRouteRuns = allHistories.filter(labelled(RECURRENCE_AT_ROUTE));
/** Simulator charges recorded after every patch above: the simulator's answer read and settled in one local activity. */
const localConfirmRuns = histories.filter(labelled(LOCAL_CONFIRM_AND_SETTLE));
/** Charges on a remote route recorded after the patches above too. */
const confirmAndSettleRuns = histories.filter((h) => labelled(CONFIRM_AND_SETTLE)(h) && !localConfirmRuns.includes(h));
/** A cycle charge signalled bare, then cancelled: recorded after every patch above, on both sides of CYCLE_CANCELLATION_CONFIRMED. */
const cycleCancellationRuns = allHistories.filter((h) => h.file.startsWith('recurrence-cycle-cancelled-'));
/** Recorded after every patch above, on the time-skipping server: the runs of a chain that continued as new, and a cycle retried over one. */
const continueAsNewRuns = allHistories.filter(labelled('continue-as-new'));
/** The patches of a run besides PERSIST_AND_OPEN, which only changes how it accepts. */
const patchesBesidesAccept = (events: HistoryEvent[]) => patchIds(events).filter((id) => id !== PERSIST_AND_OPEN);

describe(`patch ${SETTLE_DISPATCHES_EVENTS}`, () => {
  const patched = histories.filter(labelled(SETTLE_DISPATCHES_EVENTS));
  const older = histories.filter(
    (h) =>
      ![
        SETTLE_DISPATCHES_EVENTS,
        REMOTE_ROUTE_CALLS,
        LOCAL_SETTLEMENT,
        PERSIST_AND_OPEN,
        COALESCED_REFRESH,
        TRANSACTION_STATUS_SEARCH_ATTRIBUTE,
        TRANSFER_LOCAL_STEPS,
        CONFIRM_AND_SETTLE,
        TRANSFER_SETTLES_IN_ACCEPT,
      ].some((label) => labelled(label)(h)),
  );

  it('has recorded charge and transfer histories on both sides of the patch', () => {
    for (const side of [patched, older]) {
      expect(side.some((h) => h.file.startsWith('charge-'))).toBe(true);
      expect(side.some((h) => h.file.startsWith('transfer-'))).toBe(true);
    }
  });

  it('older runs settle, then dispatch the events in activities of their own', () => {
    for (const { file, events } of older) {
      expect(patchIds(events), file).toEqual([]);
      const activities = scheduledActivities(events);
      expect(activities.at(-1), file).toBe('dispatchEvent');
      expect(activities.at(-2), file).toMatch(/^settle/);
    }
  });

  it('patched runs carry the marker and settle in one activity, with no dispatchEvent', () => {
    for (const { file, events } of patched) {
      expect(patchIds(events), file).toEqual([SETTLE_DISPATCHES_EVENTS]);
      const activities = scheduledActivities(events);
      expect(activities.at(-1), file).toMatch(/^settle/);
      expect(activities, file).not.toContain('dispatchEvent');
    }
  });
});

describe(`patch ${REMOTE_ROUTE_CALLS}`, () => {
  const ROUTE_HAND_OVER = ['openChargeAtRoute', 'sendTransferAtRoute'];

  it('has recorded charge and transfer histories on a remote route', () => {
    expect(remoteRuns.some((h) => h.file.startsWith('charge-'))).toBe(true);
    expect(remoteRuns.some((h) => h.file.startsWith('transfer-'))).toBe(true);
  });

  it('remote runs carry the marker, hand over to the route in a regular activity and settle in one activity', () => {
    for (const { file, events } of remoteRuns.filter((h) => !confirmAndSettleRuns.includes(h) && !settlesInAcceptRuns.includes(h))) {
      const patches = patchesBesidesAccept(events).filter(
        (id) => id !== TRANSFER_LOCAL_STEPS && id !== TRANSACTION_STATUS_SEARCH_ATTRIBUTE,
      );
      expect(patches, file).toEqual([REMOTE_ROUTE_CALLS, SETTLE_DISPATCHES_EVENTS]);
      const activities = scheduledActivities(events);
      expect(
        activities.filter((name) => ROUTE_HAND_OVER.includes(name)),
        file,
      ).toHaveLength(1);
      expect(activities.at(-1), file).toMatch(/^settle/);
    }
  });

  it('the remote transfer polled on the remote schedule (first after 5 s, then 10 s)', () => {
    const transfer = remoteRuns.find((h) => h.file.startsWith('transfer-'))!;
    const timers = transfer.events.flatMap((e) =>
      e.timerStartedEventAttributes ? [e.timerStartedEventAttributes.startToFireTimeout.seconds] : [],
    );
    expect(timers.slice(0, 2)).toEqual(['5', '10']);
  });

  it('every other run hands over in a local activity, without the marker', () => {
    for (const { file, events } of histories.filter((h) => !remoteRuns.includes(h))) {
      expect(patchIds(events), file).not.toContain(REMOTE_ROUTE_CALLS);
      expect(
        scheduledActivities(events).filter((name) => ROUTE_HAND_OVER.includes(name)),
        file,
      ).toEqual([]);
    }
  });
});

describe(`patch ${LOCAL_SETTLEMENT}`, () => {
  it('has recorded paid, expired and refreshed simulator charges after the patch', () => {
    expect(localSettlementRuns.map((h) => h.file).sort()).toEqual(
      ['charge-expired', 'charge-paid', 'charge-refresh'].map((name) => `${name}-${LOCAL_SETTLEMENT}-encrypted.json`),
    );
  });

  it('patched runs carry the marker and settle in a local activity, the only regular one being the route call of the refresh update', () => {
    for (const { file, events } of localSettlementRuns) {
      expect(patchIds(events), file).toEqual([LOCAL_SETTLEMENT, SETTLE_DISPATCHES_EVENTS]);
      expect(localActivities(events).at(-1), file).toMatch(/^settle/);
      expect(
        scheduledActivities(events).filter((name) => name !== 'chargeStateAtRoute'),
        file,
      ).toEqual([]);
    }
  });

  it('every run recorded before it settles in a regular activity, without the marker', () => {
    for (const { file, events } of histories.filter(
      (h) =>
        !localSettlementRuns.includes(h) &&
        !persistAndOpenRuns.includes(h) &&
        !coalescedRefreshRuns.includes(h) &&
        !statusAttributeRuns.includes(h) &&
        !transferLocalStepsRuns.includes(h) &&
        !settlesInAcceptRuns.includes(h) &&
        !localConfirmRuns.includes(h),
    )) {
      expect(patchIds(events), file).not.toContain(LOCAL_SETTLEMENT);
      expect(
        localActivities(events).filter((name) => name.startsWith('settle')),
        file,
      ).toEqual([]);
    }
  });
});

describe(`patch ${PERSIST_AND_OPEN}`, () => {
  const chargeRuns = histories.filter((h) => h.file.startsWith('charge-'));

  it('has recorded paid, expired, refreshed and PSP charges after the patch', () => {
    expect(persistAndOpenRuns.map((h) => h.file).sort()).toEqual(
      ['charge-expired', 'charge-paid', 'charge-psp-paid', 'charge-refresh'].map((name) => `${name}-${PERSIST_AND_OPEN}-encrypted.json`),
    );
  });

  it('patched runs carry the marker first and accept in persistAndOpenCharge: it opened a simulator charge, a regular activity opened the PSP one', () => {
    for (const { file, events } of persistAndOpenRuns) {
      expect(patchIds(events)[0], file).toBe(PERSIST_AND_OPEN);
      const local = localActivities(events);
      expect(local[0], file).toBe('persistAndOpenCharge');
      expect(local, file).not.toContain('persistCharge');
      expect(local, file).not.toContain('openChargeAtRoute');
      const opened = scheduledActivities(events).filter((name) => name === 'openChargeAtRoute');
      expect(opened, file).toHaveLength(remoteRuns.some((h) => h.file === file) ? 1 : 0);
    }
    for (const { file, events } of persistAndOpenRuns.filter((h) => !remoteRuns.includes(h))) {
      expect(patchesBesidesAccept(events), file).toEqual([LOCAL_SETTLEMENT, SETTLE_DISPATCHES_EVENTS]);
    }
  });

  it('every charge recorded before it accepts in persistCharge, without the marker', () => {
    for (const { file, events } of chargeRuns.filter(
      (h) =>
        !persistAndOpenRuns.includes(h) &&
        !coalescedRefreshRuns.includes(h) &&
        !statusAttributeRuns.includes(h) &&
        !confirmAndSettleRuns.includes(h) &&
        !localConfirmRuns.includes(h),
    )) {
      expect(patchIds(events), file).not.toContain(PERSIST_AND_OPEN);
      expect(localActivities(events)[0], file).toBe('persistCharge');
    }
  });
});

describe(`patch ${REFUSE_UNENCRYPTED_INPUT}`, () => {
  const forged = (name: string) => forgedRuns.find((h) => h.file === `${name}-${REFUSE_UNENCRYPTED_INPUT}-encrypted.json`)!;
  const refusal = (failure: FailureJson | undefined) => failure?.applicationFailureInfo;

  it('has recorded a forged transfer start, a forged MED decision and a forged charge signal', () => {
    expect(forgedRuns.map((h) => h.file).sort()).toEqual(
      ['charge-forged-signal', 'med-forged-decision', 'transfer-forged-start'].map(
        (name) => `${name}-${REFUSE_UNENCRYPTED_INPUT}-encrypted.json`,
      ),
    );
  });

  it('the forged start carries the marker and fails at once, PayloadNotEncrypted, without any activity', () => {
    const { events } = forged('transfer-forged-start');
    expect(patchIds(events)).toEqual([REFUSE_UNENCRYPTED_INPUT]);
    expect([...scheduledActivities(events), ...localActivities(events)]).toEqual([]);
    expect(refusal(events.at(-1)!.workflowExecutionFailedEventAttributes?.failure)).toEqual({
      type: PAYLOAD_NOT_ENCRYPTED,
      nonRetryable: true,
    });
  });

  it('the forged MED decision is refused after the marker; the operator’s decision is the only one made', () => {
    const { events } = forged('med-forged-decision');
    expect(patchIds(events)).toEqual([REFUSE_UNENCRYPTED_INPUT]);
    const outcomes = events.flatMap((e) =>
      e.workflowExecutionUpdateCompletedEventAttributes
        ? [refusal(e.workflowExecutionUpdateCompletedEventAttributes.outcome.failure)?.type ?? 'success']
        : [],
    );
    expect(outcomes).toEqual(['success', PAYLOAD_NOT_ENCRYPTED, 'success']);
    expect(scheduledActivities(events).filter((name) => name === 'decideMed')).toHaveLength(1);
  });

  it('the forged charge signal is ignored: its workflow task records the marker and asks the route nothing', () => {
    const { events } = forged('charge-forged-signal');
    const signals = events.flatMap((e, i) => (e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED' ? [i] : []));
    expect(signals).toHaveLength(2);
    const afterForged = events.slice(signals[0], signals[1]);
    expect(patchIds(afterForged)).toEqual([REFUSE_UNENCRYPTED_INPUT]);
    expect(localActivities(afterForged)).toEqual([]);
    expect(localActivities(events.slice(signals[1]))).toEqual(['chargeStateAtRoute', 'settleChargePaid']);
  });

  it('every other run, encrypted or recorded before encryption, has no marker', () => {
    for (const { file, events } of allHistories.filter((h) => !forgedRuns.includes(h)))
      expect(patchIds(events), file).not.toContain(REFUSE_UNENCRYPTED_INPUT);
  });
});

describe(`patch ${COALESCED_REFRESH}`, () => {
  const refreshes = (events: HistoryEvent[]) =>
    events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest.input.name === 'refresh').length;
  const routeCalls = (events: HistoryEvent[]) => scheduledActivities(events).filter((name) => name === 'chargeStateAtRoute').length;
  const olderRefreshed = histories.filter((h) => h.file.startsWith('charge-refresh') && !coalescedRefreshRuns.includes(h));

  it('has recorded refreshed charges on both sides of the patch', () => {
    expect(coalescedRefreshRuns.map((h) => h.file).sort()).toEqual(
      ['charge-refresh', 'charge-refresh-concurrent'].map((name) => `${name}-${COALESCED_REFRESH}-encrypted.json`),
    );
    expect(olderRefreshed.length).toBeGreaterThan(0);
  });

  it('patched runs carry the marker with all the earlier ones; three refreshes accepted together made one route call', () => {
    for (const { file, events } of coalescedRefreshRuns) {
      expect(patchIds(events), file).toEqual([PERSIST_AND_OPEN, COALESCED_REFRESH, LOCAL_SETTLEMENT, SETTLE_DISPATCHES_EVENTS]);
    }
    const concurrent = coalescedRefreshRuns.find((h) => h.file.startsWith('charge-refresh-concurrent-'))!;
    expect(refreshes(concurrent.events)).toBe(3);
    expect(routeCalls(concurrent.events)).toBe(1);
  });

  it('runs recorded before it carry no marker and make a route call per refresh', () => {
    for (const { file, events } of histories.filter((h) => !coalescedRefreshRuns.includes(h)))
      expect(patchIds(events), file).not.toContain(COALESCED_REFRESH);
    for (const { file, events } of olderRefreshed) expect(routeCalls(events), file).toBeGreaterThanOrEqual(refreshes(events));
  });
});

describe(`patch ${CONFIRM_AND_SETTLE}`, () => {
  it('has recorded a charge paid on a PSP route after the patch', () => {
    expect(confirmAndSettleRuns.map((h) => h.file)).toEqual([`charge-psp-paid-${CONFIRM_AND_SETTLE}-encrypted.json`]);
  });

  it('patched runs carry the marker and settle in the regular activity that read the route: no activity after it', () => {
    for (const { file, events } of confirmAndSettleRuns) {
      expect(patchIds(events), file).toContain(CONFIRM_AND_SETTLE);
      expect(patchIds(events), file).not.toContain(SETTLE_DISPATCHES_EVENTS);
      expect(scheduledActivities(events), file).toEqual(['openChargeAtRoute', 'confirmChargeAtRoute']);
      expect(localActivities(events), file).toEqual(['persistAndOpenCharge']);
    }
  });

  it('every run recorded before it carries no marker and reads the route apart from settling', () => {
    for (const { file, events } of allHistories.filter((h) => !confirmAndSettleRuns.includes(h) && !continueAsNewRuns.includes(h))) {
      expect(patchIds(events), file).not.toContain(CONFIRM_AND_SETTLE);
      expect(scheduledActivities(events), file).not.toContain('confirmChargeAtRoute');
    }
  });
});

describe(`patch ${LOCAL_CONFIRM_AND_SETTLE}`, () => {
  it('has recorded a simulator charge paid after the patch', () => {
    expect(localConfirmRuns.map((h) => h.file)).toEqual([`charge-paid-${LOCAL_CONFIRM_AND_SETTLE}-encrypted.json`]);
  });

  it('patched runs carry the marker and settle in the local activity that read the simulator: no activity after it', () => {
    for (const { file, events } of localConfirmRuns) {
      expect(patchIds(events), file).toContain(LOCAL_CONFIRM_AND_SETTLE);
      expect(patchIds(events), file).not.toContain(SETTLE_DISPATCHES_EVENTS);
      expect(localActivities(events), file).toEqual(['persistAndOpenCharge', 'confirmChargeAtRoute']);
      expect(scheduledActivities(events), file).toEqual([]);
    }
  });

  it('every run recorded before it carries no marker and reads the simulator apart from settling', () => {
    for (const { file, events } of allHistories.filter((h) => !localConfirmRuns.includes(h))) {
      expect(patchIds(events), file).not.toContain(LOCAL_CONFIRM_AND_SETTLE);
      expect(localActivities(events), file).not.toContain('confirmChargeAtRoute');
    }
  });
});

describe('due-date charges', () => {
  const dueDateRun = (name: string) => allHistories.find((h) => h.file === `due-date-charge-${name}-encrypted.json`)!.events;

  it('has recorded due-date charges after every patch: paid late on the simulator, paid on a PSP route, polled there across a continue-as-new', () => {
    expect(allHistories.filter((h) => h.file.startsWith('due-date-charge-')).map((h) => h.file)).toEqual([
      'due-date-charge-paid-late-encrypted.json',
      'due-date-charge-psp-continue-as-new-run-1-encrypted.json',
      'due-date-charge-psp-continue-as-new-run-2-encrypted.json',
      'due-date-charge-psp-paid-encrypted.json',
    ]);
  });

  it('on the simulator it takes the immediate charge path, waiting on one timer', () => {
    const events = dueDateRun('paid-late');
    expect(patchIds(events)).toEqual([PERSIST_AND_OPEN, LOCAL_SETTLEMENT, SETTLE_DISPATCHES_EVENTS]);
    expect(localActivities(events)).toEqual(['persistAndOpenCharge', 'chargeStateAtRoute', 'settleChargePaid']);
    expect(scheduledActivities(events)).toEqual([]);
    expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(1);
  });

  it(`on a PSP route it carries ${DUE_DATE_POLLING} and polled first after 5 s`, () => {
    const events = dueDateRun('psp-paid');
    expect(patchIds(events)).toEqual([PERSIST_AND_OPEN, REMOTE_ROUTE_CALLS, DUE_DATE_POLLING, SETTLE_DISPATCHES_EVENTS]);
    expect(scheduledActivities(events)).toEqual(['openChargeAtRoute', 'chargeStateAtRoute', 'chargeStateAtRoute', 'settleChargePaid']);
    const timers = events.flatMap((e) => (e.timerStartedEventAttributes ? [e.timerStartedEventAttributes.startToFireTimeout.seconds] : []));
    expect(timers).toEqual(['5', '10']);
  });

  it(`no other run carries ${DUE_DATE_POLLING}`, () => {
    // A cycle charge at a PSP is a due-date charge on a remote route too (recorded after recurrence-at-route).
    for (const { file, events } of allHistories.filter(
      (h) => !h.file.startsWith('due-date-charge-psp-') && !h.file.startsWith('recurrence-cycle-psp-'),
    ))
      expect(patchIds(events), file).not.toContain(DUE_DATE_POLLING);
  });
});

type Upsert = {
  upsertWorkflowSearchAttributesEventAttributes?: { searchAttributes?: { indexedFields?: Record<string, { data: string }> } };
};
/** The values a run upserted TransactionStatus to, in order (the SDK upserts its own attributes too). */
const shownStatuses = (events: HistoryEvent[]): string[] =>
  events.flatMap((e) => {
    const field = (e as Upsert).upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TransactionStatus;
    return field ? [JSON.parse(Buffer.from(field.data, 'base64').toString('utf8')) as string] : [];
  });
/** Transfers recorded after TRANSFER_LOCAL_STEPS and charges after CONFIRM_AND_SETTLE were recorded after this patch too. */
const statusRuns = allHistories.filter((h) =>
  [TRANSACTION_STATUS_SEARCH_ATTRIBUTE, TRANSFER_LOCAL_STEPS, CONFIRM_AND_SETTLE].some((label) => labelled(label)(h)),
);
const refundedChargeRuns = allHistories.filter(labelled(REFUNDED_CHARGE_STATUS));
const recurrenceStatusRuns = allHistories.filter(labelled(RECURRENCE_STATUS_SEARCH_ATTRIBUTE));

describe(`patch ${TRANSACTION_STATUS_SEARCH_ATTRIBUTE}`, () => {
  it('has recorded charge, transfer and refund runs that carry the marker and upsert the status', () => {
    for (const kind of ['charge-', 'transfer-', 'refund-'])
      expect(
        statusRuns.some((h) => h.file.startsWith(kind)),
        kind,
      ).toBe(true);
    for (const { file, events } of [...statusRuns, ...refundedChargeRuns]) {
      expect(patchIds(events), file).toContain(TRANSACTION_STATUS_SEARCH_ATTRIBUTE);
      // Accepted (pending), then settled.
      expect(shownStatuses(events), file).toHaveLength(2);
      expect(shownStatuses(events)[0], file).toBe('pending');
    }
  });

  it('runs recorded before it upsert nothing', () => {
    const later = [
      ...statusRuns,
      ...refundedChargeRuns,
      ...recurrenceStatusRuns,
      ...recurrenceAtRouteRuns,
      ...settlesInAcceptRuns,
      ...cycleCancellationRuns,
      ...continueAsNewRuns,
    ];
    for (const { file, events } of allHistories.filter((h) => !later.includes(h))) expect(shownStatuses(events), file).toEqual([]);
  });
});

describe(`patch ${REFUNDED_CHARGE_STATUS}`, () => {
  it('a refund that left its charge fully refunded carries the marker and shows refunded; a partial one shows approved', () => {
    const whole = refundedChargeRuns.filter((h) => h.file.startsWith('refund-whole-charge-'));
    const partial = refundedChargeRuns.filter((h) => h.file.startsWith('refund-approved-'));
    expect(whole).toHaveLength(1);
    expect(partial).toHaveLength(1);
    for (const { file, events } of whole) {
      expect(patchIds(events), file).toContain(REFUNDED_CHARGE_STATUS);
      expect(shownStatuses(events), file).toEqual(['pending', 'refunded']);
    }
    for (const { file, events } of partial) {
      expect(patchIds(events), file).not.toContain(REFUNDED_CHARGE_STATUS);
      expect(shownStatuses(events), file).toEqual(['pending', 'approved']);
    }
  });
});

describe(`patch ${RECURRENCE_STATUS_SEARCH_ATTRIBUTE}`, () => {
  it('recurrence runs recorded after it carry the marker and show each status they reached', () => {
    const shown = Object.fromEntries(recurrenceStatusRuns.map((h) => [h.file.split(`-${RECURRENCE_STATUS_SEARCH_ATTRIBUTE}-`)[0], h]));
    expect(Object.keys(shown).sort()).toEqual(['recurrence-active', 'recurrence-cancelled', 'recurrence-rejected']);
    for (const { file, events } of recurrenceStatusRuns) expect(patchIds(events), file).toContain(RECURRENCE_STATUS_SEARCH_ATTRIBUTE);
    expect(shownStatuses(shown['recurrence-rejected']!.events)).toEqual(['rejected']);
    expect(shownStatuses(shown['recurrence-active']!.events)).toEqual(['active']);
    expect(shownStatuses(shown['recurrence-cancelled']!.events)).toEqual(['active', 'cancelled']);
  });

  it('recurrence runs recorded before it carry no marker', () => {
    const later = [...recurrenceStatusRuns, ...recurrenceAtRouteRuns, ...continueAsNewRuns];
    for (const { file, events } of allHistories.filter((h) => h.file.startsWith('recurrence-') && !later.includes(h)))
      expect(patchIds(events), file).not.toContain(RECURRENCE_STATUS_SEARCH_ATTRIBUTE);
  });
});

describe(`patch ${TRANSFER_LOCAL_STEPS}`, () => {
  const transferRuns = histories.filter((h) => h.file.startsWith('transfer-'));
  const simulatorRuns = transferLocalStepsRuns.filter((h) => !remoteRuns.includes(h));

  it('has recorded approved, failed and PSP transfers after the patch', () => {
    expect(transferLocalStepsRuns.map((h) => h.file).sort()).toEqual(
      ['transfer-approved', 'transfer-failed', 'transfer-psp-approved'].map((name) => `${name}-${TRANSFER_LOCAL_STEPS}-encrypted.json`),
    );
  });

  it('patched runs carry the marker first and accept in persistAndSendTransfer; a regular activity sent the PSP one', () => {
    for (const { file, events } of transferLocalStepsRuns) {
      expect(patchIds(events)[0], file).toBe(TRANSFER_LOCAL_STEPS);
      const local = localActivities(events);
      expect(local[0], file).toBe('persistAndSendTransfer');
      expect(local, file).not.toContain('persistTransfer');
      expect(local, file).not.toContain('sendTransferAtRoute');
      const sent = scheduledActivities(events).filter((name) => name === 'sendTransferAtRoute');
      expect(sent, file).toHaveLength(remoteRuns.some((h) => h.file === file) ? 1 : 0);
    }
  });

  it('on the simulator they ask the route and settle in local activities, with no regular activity', () => {
    expect(simulatorRuns.length).toBe(2);
    for (const { file, events } of simulatorRuns) {
      expect(localActivities(events).slice(1, 2), file).toEqual(['transferStateAtRoute']);
      expect(localActivities(events).at(-1), file).toMatch(/^settleTransfer/);
      expect(scheduledActivities(events), file).toEqual([]);
    }
  });

  it('every transfer recorded before it accepts in persistTransfer, without the marker', () => {
    for (const { file, events } of transferRuns.filter((h) => !transferLocalStepsRuns.includes(h) && !settlesInAcceptRuns.includes(h))) {
      expect(patchIds(events), file).not.toContain(TRANSFER_LOCAL_STEPS);
      expect(localActivities(events)[0], file).toBe('persistTransfer');
    }
  });
});

describe(`patch ${RECURRENCE_AT_ROUTE}`, () => {
  const run = (name: string) => recurrenceAtRouteRuns.find((h) => h.file === `${name}-${RECURRENCE_AT_ROUTE}-encrypted.json`)!.events;
  const signals = (events: HistoryEvent[]) =>
    events.flatMap((e) => (e.workflowExecutionSignaledEventAttributes ? [e.workflowExecutionSignaledEventAttributes.signalName] : []));

  it('has recorded recurrences and cycle charges on a PSP route after it', () => {
    expect(recurrenceAtRouteRuns.map((h) => h.file).sort()).toEqual(
      ['recurrence-cycle-psp-declined', 'recurrence-cycle-psp-paid', 'recurrence-psp-active', 'recurrence-psp-cancelled'].map(
        (name) => `${name}-${RECURRENCE_AT_ROUTE}-encrypted.json`,
      ),
    );
  });

  it('a recurrence on a PSP route carries the marker first and takes the payer’s answer from the route when its webhook wakes it', () => {
    for (const name of ['recurrence-psp-active', 'recurrence-psp-cancelled']) {
      const events = run(name);
      expect(patchIds(events)[0], name).toBe(RECURRENCE_AT_ROUTE);
      expect(signals(events), name).toEqual(['recurrenceNotified']);
      expect(scheduledActivities(events).slice(0, 3), name).toEqual([
        'recurrenceTransitionAtRoute',
        'transitionRecurrence',
        'createCycleCharge',
      ]);
    }
    // The merchant's cancellation is asked of the route first.
    expect(scheduledActivities(run('recurrence-psp-cancelled')).slice(3)).toEqual([
      'cancelRecurrenceAtRoute',
      'transitionRecurrence',
      'cancelCycleCharges',
    ]);
  });

  it('a cycle charge at the PSP opens and reads its cobr in regular activities, and asks the retry of a refused debit at the route', () => {
    expect(scheduledActivities(run('recurrence-cycle-psp-paid'))).toEqual(['openChargeAtRoute', 'chargeStateAtRoute', 'settleChargePaid']);
    expect(scheduledActivities(run('recurrence-cycle-psp-declined'))).toEqual([
      'openChargeAtRoute',
      'chargeStateAtRoute',
      'retryCycleAtRoute',
    ]);
    for (const name of ['recurrence-cycle-psp-paid', 'recurrence-cycle-psp-declined'])
      expect(patchIds(run(name)), name).toContain(DUE_DATE_POLLING);
  });

  it('no run recorded before it carries the marker', () => {
    for (const { file, events } of allHistories.filter((h) => !recurrenceAtRouteRuns.includes(h)))
      expect(patchIds(events), file).not.toContain(RECURRENCE_AT_ROUTE);
  });
});

describe(`patch ${TRANSFER_SETTLES_IN_ACCEPT}`, () => {
  const run = (name: string) => settlesInAcceptRuns.find((h) => h.file === `${name}-${TRANSFER_SETTLES_IN_ACCEPT}-encrypted.json`)!.events;
  const workflowTasks = (events: HistoryEvent[]) => events.filter((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_TASK_COMPLETED').length;

  it('has recorded approved, failed, PSP and at-once transfers after the patch', () => {
    expect(settlesInAcceptRuns.map((h) => h.file).sort()).toEqual(
      ['transfer-approved', 'transfer-failed', 'transfer-pays-charge', 'transfer-psp-approved'].map(
        (name) => `${name}-${TRANSFER_SETTLES_IN_ACCEPT}-encrypted.json`,
      ),
    );
  });

  it('patched runs carry its marker alone and accept in acceptTransfer; a regular activity sent the PSP one', () => {
    for (const { file, events } of settlesInAcceptRuns) {
      expect(patchIds(events), file).toEqual([TRANSFER_SETTLES_IN_ACCEPT]);
      expect(localActivities(events)[0], file).toBe('acceptTransfer');
      const sent = scheduledActivities(events).filter((name) => name === 'sendTransferAtRoute');
      expect(sent, file).toHaveLength(remoteRuns.some((h) => h.file === file) ? 1 : 0);
    }
  });

  it('a transfer the network paid at the hand-over settles in that one local activity, in one workflow task, its status shown once', () => {
    const events = run('transfer-pays-charge');
    expect(localActivities(events)).toEqual(['acceptTransfer']);
    expect(scheduledActivities(events)).toEqual([]);
    expect(workflowTasks(events)).toBe(1);
    expect(shownStatuses(events)).toEqual(['approved']);
  });

  it('a transfer the network answered later shows pending, then asks the route and settles in local activities on the simulator', () => {
    for (const [name, settle, status] of [
      ['transfer-approved', 'settleTransferApproved', 'approved'],
      ['transfer-failed', 'settleTransferFailed', 'failed'],
    ]) {
      const events = run(name!);
      expect(localActivities(events), name).toEqual(['acceptTransfer', 'transferStateAtRoute', settle]);
      expect(scheduledActivities(events), name).toEqual([]);
      expect(shownStatuses(events), name).toEqual(['pending', status]);
    }
    expect(shownStatuses(run('transfer-psp-approved'))).toEqual(['pending', 'approved']);
  });
});

describe(`patch ${CYCLE_CANCELLATION_CONFIRMED}`, () => {
  const run = (file: string) => cycleCancellationRuns.find((h) => h.file === file)!.events;
  const before = run('recurrence-cycle-cancelled-encrypted.json');
  const confirmed = run(`recurrence-cycle-cancelled-${CYCLE_CANCELLATION_CONFIRMED}-encrypted.json`);
  const signalled = (events: HistoryEvent[]) =>
    events.flatMap((e, i) => (e.workflowExecutionSignaledEventAttributes?.signalName === 'cycleCancelled' ? [i] : []));

  it('has recorded a cycle charge signalled bare, then cancelled by the merchant, on both sides of the patch', () => {
    expect(cycleCancellationRuns.map((h) => h.file).sort()).toEqual([
      `recurrence-cycle-cancelled-${CYCLE_CANCELLATION_CONFIRMED}-encrypted.json`,
      'recurrence-cycle-cancelled-encrypted.json',
    ]);
  });

  it('before it, the bare signal alone cancelled the cycle (the cancellation found nothing left to signal)', () => {
    expect(patchIds(before)).not.toContain(CYCLE_CANCELLATION_CONFIRMED);
    expect(signalled(before)).toHaveLength(1);
    expect(localActivities(before)).toEqual(['persistAndOpenCharge', 'cancelChargeAtRoute', 'settleChargeCancelled']);
  });

  it('after it, PostgreSQL is asked first: the bare signal changed nothing, the cancellation’s own signal cancelled the cycle', () => {
    const [bare, real] = signalled(confirmed);
    expect(real).toBeDefined();
    expect(patchIds(confirmed.slice(bare, real))).toContain(CYCLE_CANCELLATION_CONFIRMED);
    expect(localActivities(confirmed.slice(bare, real))).toEqual(['cycleCancelledByRecurrence']);
    expect(localActivities(confirmed.slice(real))).toEqual(['cycleCancelledByRecurrence', 'cancelChargeAtRoute', 'settleChargeCancelled']);
    expect(shownStatuses(confirmed)).toEqual(['pending', 'cancelled']);
  });

  it('no other run carries the marker', () => {
    for (const { file, events } of allHistories.filter((h) => h.events !== confirmed))
      expect(patchIds(events), file).not.toContain(CYCLE_CANCELLATION_CONFIRMED);
  });
});

describe('runs that continue as new', () => {
  const run = (name: string) => continueAsNewRuns.find((h) => h.file === `${name}-encrypted.json`)!.events;
  const continuedAsNew = (events: HistoryEvent[]) => events.at(-1)!.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW';
  const timers = (events: HistoryEvent[]) =>
    events.flatMap((e) => (e.timerStartedEventAttributes ? [Number(e.timerStartedEventAttributes.startToFireTimeout.seconds)] : []));

  it('has recorded a due-date charge and a recurrence run by run, and a cycle retried over the recurrence’s continue-as-new', () => {
    expect(continueAsNewRuns.map((h) => h.file).sort()).toEqual(
      [
        'due-date-charge-psp-continue-as-new-run-1',
        'due-date-charge-psp-continue-as-new-run-2',
        'recurrence-continue-as-new-run-1',
        'recurrence-continue-as-new-run-2',
        'recurrence-cycle-retried-across-continue-as-new',
      ].map((name) => `${name}-encrypted.json`),
    );
  });

  it(`a due-date charge on a PSP route polls ${DUE_DATE_POLLS_PER_RUN} times, from 5 s doubling to hourly, then continues as new; its next run polls hourly`, () => {
    const first = run('due-date-charge-psp-continue-as-new-run-1');
    const next = run('due-date-charge-psp-continue-as-new-run-2');
    for (const events of [first, next])
      expect(patchIds(events)).toEqual([
        PERSIST_AND_OPEN,
        REMOTE_ROUTE_CALLS,
        TRANSACTION_STATUS_SEARCH_ATTRIBUTE,
        DUE_DATE_POLLING,
        CONFIRM_AND_SETTLE,
      ]);
    expect(continuedAsNew(first)).toBe(true);
    expect(scheduledActivities(first)).toEqual([
      'openChargeAtRoute',
      ...Array<string>(DUE_DATE_POLLS_PER_RUN).fill('confirmChargeAtRoute'),
    ]);
    expect(timers(first)).toEqual(Array.from({ length: DUE_DATE_POLLS_PER_RUN }, (_, poll) => dueDatePollDelayMs(poll) / 1000));
    expect(shownStatuses(first)).toEqual(['pending']);
    // The next run finds the charge opened, reads the route until the payment's notice and settles in that read.
    expect(localActivities(next)).toEqual(['persistAndOpenCharge']);
    expect(new Set(scheduledActivities(next))).toEqual(new Set(['confirmChargeAtRoute']));
    expect(new Set(timers(next))).toEqual(new Set([3600]));
    expect(shownStatuses(next)).toEqual(['pending', 'approved']);
  });

  it(`a recurrence creates ${CYCLES_PER_RUN} cycles, then continues as new; its next run creates the last one and completes`, () => {
    const first = run('recurrence-continue-as-new-run-1');
    const next = run('recurrence-continue-as-new-run-2');
    for (const events of [first, next]) expect(patchIds(events)).toEqual([RECURRENCE_STATUS_SEARCH_ATTRIBUTE]);
    expect(continuedAsNew(first)).toBe(true);
    expect(scheduledActivities(first)).toEqual(['transitionRecurrence', ...Array<string>(CYCLES_PER_RUN).fill('createCycleCharge')]);
    expect(shownStatuses(first)).toEqual(['active']);
    expect(scheduledActivities(next)).toEqual(['createCycleCharge', 'cyclesSettled', 'transitionRecurrence']);
    expect(shownStatuses(next)).toEqual(['completed']);
  });

  it('the cycle retried over it asked a retry after each of three declines, then was paid, all in local activities', () => {
    const events = run('recurrence-cycle-retried-across-continue-as-new');
    expect(patchIds(events)).toEqual([
      PERSIST_AND_OPEN,
      TRANSACTION_STATUS_SEARCH_ATTRIBUTE,
      LOCAL_SETTLEMENT,
      RECURRENCE_CYCLES,
      SETTLE_DISPATCHES_EVENTS,
    ]);
    expect(localActivities(events)).toEqual([
      'persistAndOpenCharge',
      ...Array.from({ length: 3 }, () => ['chargeStateAtRoute', 'retryCycleAtRoute']).flat(),
      'chargeStateAtRoute',
      'settleChargePaid',
    ]);
    expect(scheduledActivities(events)).toEqual([]);
    expect(shownStatuses(events)).toEqual(['pending', 'approved']);
  });
});
