// The committed histories cover both sides of every patch: runs recorded before
// `settle-dispatches-events` settle, then dispatch each event in a dispatchEvent activity; runs
// recorded after it carry the patch marker and settle in one activity that dispatched its events.
// Runs on a remote route recorded after `remote-route-calls` carry its marker and create or send at
// the route in a regular activity; every other run does it in a local one.
// replay.test.ts replays them all against today's code.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REMOTE_ROUTE_CALLS, SETTLE_DISPATCHES_EVENTS } from '../../workflows/transaction.contract.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');

interface HistoryEvent {
  eventType: string;
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  markerRecordedEventAttributes?: { markerName: string; details?: Record<string, { payloads: Array<{ data: string }> }> };
  timerStartedEventAttributes?: { startToFireTimeout: { seconds?: string } };
}

function scheduledActivities(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType.name] : []));
}

function patchIds(events: HistoryEvent[]): string[] {
  return events
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
    .map((e) => JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads[0]!.data, 'base64').toString('utf8')).id);
}

const histories = readdirSync(HISTORIES_DIR)
  .filter((f) => /^(charge|transfer)-.*\.json$/.test(f))
  .map((file) => ({ file, events: (JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8')) as { events: HistoryEvent[] }).events }));

const labelled = (label: string) => (h: { file: string }) => h.file.includes(`-${label}-`);
const remoteRuns = histories.filter(labelled(REMOTE_ROUTE_CALLS));

describe(`patch ${SETTLE_DISPATCHES_EVENTS}`, () => {
  const patched = histories.filter(labelled(SETTLE_DISPATCHES_EVENTS));
  const older = histories.filter((h) => !labelled(SETTLE_DISPATCHES_EVENTS)(h) && !labelled(REMOTE_ROUTE_CALLS)(h));

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
    for (const { file, events } of remoteRuns) {
      expect(patchIds(events), file).toEqual([REMOTE_ROUTE_CALLS, SETTLE_DISPATCHES_EVENTS]);
      const activities = scheduledActivities(events);
      expect(activities.filter((name) => ROUTE_HAND_OVER.includes(name)), file).toHaveLength(1);
      expect(activities.at(-1), file).toMatch(/^settle/);
    }
  });

  it('the remote transfer polled on the remote schedule (first after 5 s, then 10 s)', () => {
    const transfer = remoteRuns.find((h) => h.file.startsWith('transfer-'))!;
    const timers = transfer.events.flatMap((e) => (e.timerStartedEventAttributes ? [e.timerStartedEventAttributes.startToFireTimeout.seconds] : []));
    expect(timers.slice(0, 2)).toEqual(['5', '10']);
  });

  it('every other run hands over in a local activity, without the marker', () => {
    for (const { file, events } of histories.filter((h) => !remoteRuns.includes(h))) {
      expect(patchIds(events), file).not.toContain(REMOTE_ROUTE_CALLS);
      expect(scheduledActivities(events).filter((name) => ROUTE_HAND_OVER.includes(name)), file).toEqual([]);
    }
  });
});
