// Temporal work per operation, read from the workflow histories a bench run left on its Temporal
// server: what a Temporal Cloud bill counts as actions (workflow starts and continue-as-new, signals,
// updates, activities, local activities, timers, search-attribute upserts) and what a self-hosted
// cluster's history shards carry besides (workflow tasks, history events). Each history is one
// workflow run; the figures are divided by the operations (distinct workflow ids) sampled.
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { printTable } from './measure.js';

const { EventType } = proto.temporal.api.enums.v1;

export interface ActionCounts {
  starts: number;
  signals: number;
  updates: number;
  activities: number;
  localActivities: number;
  timers: number;
  upserts: number;
  workflowTasks: number;
  events: number;
}

/** The actions of `counts` as Temporal Cloud bills them, each counted once (workflow tasks and events are not billed). */
export const billedActions = (c: ActionCounts): number =>
  c.starts + c.signals + c.updates + c.activities + c.localActivities + c.timers + c.upserts;

/** A history event as the SDK answers it (enum numbers) or as a committed history file holds it (enum names). */
interface AnyEvent {
  eventType?: number | string | null;
  markerRecordedEventAttributes?: { markerName?: string | null } | null;
}

const typeName = (event: AnyEvent): string =>
  ((typeof event.eventType === 'number' ? EventType[event.eventType] : event.eventType) ?? '').replace(/^EVENT_TYPE_/, '');

/** What one workflow run's history holds. */
export function countEvents(events: AnyEvent[]): ActionCounts {
  const counts: ActionCounts = {
    starts: 0,
    signals: 0,
    updates: 0,
    activities: 0,
    localActivities: 0,
    timers: 0,
    upserts: 0,
    workflowTasks: 0,
    events: events.length,
  };
  for (const event of events) {
    switch (typeName(event)) {
      case 'WORKFLOW_EXECUTION_STARTED':
        counts.starts += 1;
        break;
      case 'WORKFLOW_EXECUTION_SIGNALED':
        counts.signals += 1;
        break;
      case 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED':
        counts.updates += 1;
        break;
      case 'ACTIVITY_TASK_SCHEDULED':
        counts.activities += 1;
        break;
      case 'MARKER_RECORDED':
        if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') counts.localActivities += 1;
        break;
      case 'TIMER_STARTED':
        counts.timers += 1;
        break;
      case 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES':
        counts.upserts += 1;
        break;
      case 'WORKFLOW_TASK_SCHEDULED':
        counts.workflowTasks += 1;
        break;
    }
  }
  return counts;
}

/**
 * The histories of up to `sample` workflows among those `query` (a visibility query) lists, every run
 * of each, summed and divided by the workflows read.
 */
export async function actionsPerOperation(client: Client, query: string, sample: number): Promise<ActionCounts & { operations: number }> {
  const ids = new Set<string>();
  const runs: { workflowId: string; runId: string }[] = [];
  for await (const execution of client.workflow.list({ query })) {
    if (!ids.has(execution.workflowId)) {
      if (ids.size >= sample) continue;
      ids.add(execution.workflowId);
    }
    runs.push({ workflowId: execution.workflowId, runId: execution.runId });
  }
  const total = countEvents([]);
  for (const { workflowId, runId } of runs) {
    const { events } = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const counts = countEvents((events ?? []) as AnyEvent[]);
    for (const key of Object.keys(total) as (keyof ActionCounts)[]) total[key] += counts[key];
  }
  const operations = Math.max(ids.size, 1);
  const per = Object.fromEntries(Object.entries(total).map(([key, value]) => [key, value / operations])) as unknown as ActionCounts;
  return { ...per, operations: ids.size };
}

export function printActionsTable(rows: { label: string; counts: ActionCounts & { operations?: number } }[]): void {
  const f = (n: number) => n.toFixed(2).replace(/\.00$/, '');
  printTable(
    [
      'per operation',
      'sampled',
      'actions',
      'starts',
      'signals',
      'updates',
      'activities',
      'local act.',
      'timers',
      'upserts',
      'wf tasks',
      'events',
    ],
    rows.map(({ label, counts: c }) => [
      label,
      String(c.operations ?? 1),
      f(billedActions(c)),
      f(c.starts),
      f(c.signals),
      f(c.updates),
      f(c.activities),
      f(c.localActivities),
      f(c.timers),
      f(c.upserts),
      f(c.workflowTasks),
      f(c.events),
    ]),
  );
}
