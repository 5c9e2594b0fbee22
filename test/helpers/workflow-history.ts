// The order of a workflow's history events, for tests that must tell what a workflow acted on (a
// signal, a timer) by what it recorded rather than by how long it took.
import { temporal } from '@temporalio/proto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { inject } from 'vitest';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { cycleChargeKey } from '../../src/recurrences/ids.js';
import { eventually } from './eventually.js';

type Event = temporal.api.history.v1.IHistoryEvent;

/** The history's event types without their prefix: 'WORKFLOW_EXECUTION_SIGNALED', 'TIMER_FIRED', … */
export async function eventTypes(handle: WorkflowHandle): Promise<string[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).map((event: Event) => temporal.api.enums.v1.EventType[event.eventType!]!.replace(/^EVENT_TYPE_/, ''));
}

/** An activity was scheduled (or a local activity recorded) by the workflow: it did some work. */
const WORK = new Set(['ACTIVITY_TASK_SCHEDULED', 'MARKER_RECORDED']);

/**
 * What the workflow did first after the signal: 'work' when it scheduled an activity before any of its
 * timers fired (it acted on the signal), 'timer' when a timer fired first (a poll came before it acted),
 * null when the history holds no such signal or nothing after it.
 */
export function firstAfterSignal(types: string[]): 'work' | 'timer' | null {
  const signalled = types.indexOf('WORKFLOW_EXECUTION_SIGNALED');
  if (signalled < 0) return null;
  for (const type of types.slice(signalled + 1)) {
    if (type === 'TIMER_FIRED') return 'timer';
    if (WORK.has(type)) return 'work';
  }
  return null;
}

/** Timers that fired before the first signal: polls the workflow made before it was told anything. */
export const timersBeforeSignal = (types: string[]): number =>
  types.slice(0, Math.max(0, types.indexOf('WORKFLOW_EXECUTION_SIGNALED'))).filter((type) => type === 'TIMER_FIRED').length;

export interface LocalActivityFailure {
  activityType: string;
  /** The attempt that failed last: 1 when the failure was not retried. */
  attempt: number;
  failureType: string | null;
}

/** The local activities that failed in a history, read from the SDK's markers (plain JSON, not encrypted). */
export async function localActivityFailures(handle: WorkflowHandle): Promise<LocalActivityFailure[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? []).flatMap((event: Event) => {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity' || !marker.failure) return [];
    const data = JSON.parse(Buffer.from(marker.details!['data']!.payloads![0]!.data!).toString('utf8'));
    return [{ activityType: data.activity_type, attempt: data.attempt, failureType: marker.failure.applicationFailureInfo?.type ?? null }];
  });
}

/** A client of the test run's Temporal server, for reading histories (no payload codec: event types and markers only). */
export async function historyReader(): Promise<Client> {
  return new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
}

/**
 * True once the run took its signal `name` and has nothing in flight (no workflow task, no activity): it
 * did all it was going to do on that signal, or it ended. A step the signal started is in flight from the
 * task that started it until its result's task is done, so there is no gap between them.
 */
export async function quietAfterSignal(handle: WorkflowHandle, name: string): Promise<boolean> {
  const { events } = await handle.fetchHistory();
  const signalled = (events ?? []).findIndex((event: Event) => event.workflowExecutionSignaledEventAttributes?.signalName === name);
  if (signalled < 0 || !(events ?? []).slice(signalled).some((event: Event) => event.workflowTaskCompletedEventAttributes)) return false;
  const { raw } = await handle.describe();
  const running = raw.workflowExecutionInfo?.status === temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  return !running || (!raw.pendingWorkflowTask && (raw.pendingActivities ?? []).length === 0);
}

/**
 * Sends the cycle charge's workflow a bare `cycleCancelled` (no arguments, no key), as
 * `temporal workflow signal -w charge:<acc>:rec_…:cycle:<date> --name cycleCancelled` does from anywhere
 * Temporal is reachable, and waits until the workflow has handled it.
 */
export async function sendBareCycleCancelled(accountId: string, recurrenceId: string, dueDate: string): Promise<void> {
  const temporal = await historyReader();
  try {
    const handle = temporal.workflow.getHandle(chargeWorkflowId(accountId, cycleChargeKey(recurrenceId, dueDate)));
    await handle.signal('cycleCancelled');
    await eventually(() => quietAfterSignal(handle, 'cycleCancelled'), 20_000, 100);
  } finally {
    await temporal.connection.close();
  }
}
