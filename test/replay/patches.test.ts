// The committed histories cover both sides of every patch: runs recorded before
// `settle-dispatches-events` settle, then dispatch each event in a dispatchEvent activity; runs
// recorded after it carry the patch marker and settle in one activity that dispatched its events.
// replay.test.ts replays them all against today's code.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTLE_DISPATCHES_EVENTS } from '../../workflows/transaction.contract.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');

interface HistoryEvent {
  eventType: string;
  activityTaskScheduledEventAttributes?: { activityType: { name: string } };
  markerRecordedEventAttributes?: { markerName: string; details?: Record<string, { payloads: Array<{ data: string }> }> };
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

describe(`patch ${SETTLE_DISPATCHES_EVENTS}`, () => {
  const patched = histories.filter((h) => h.file.includes(`-${SETTLE_DISPATCHES_EVENTS}-`));
  const older = histories.filter((h) => !h.file.includes(`-${SETTLE_DISPATCHES_EVENTS}-`));

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
