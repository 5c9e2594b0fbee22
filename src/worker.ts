// The Temporal worker: every workflow of workflows/ and every activity of activities/ on one task queue.
import { Worker, type ActivityInterceptorsFactory, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { activityInterceptors, createActivities } from '../activities/index.js';
import type { Deps } from './runtime/deps.js';
import { bundleWorkflows } from './temporal/bundle.js';
import { encryptingDataConverter } from './temporal/codec/data-converter.js';
import type { PayloadKeys } from './config/payload-keys.js';
import { activeTracing } from './tracing/provider.js';
import { tracingWorkerOptions } from './tracing/temporal.js';

export async function createWorker(deps: Deps, connection: NativeConnection, keys: PayloadKeys): Promise<Worker> {
  const bundlePath = deps.config.temporalWorkflowBundle;
  const workflowBundle = bundlePath ? { codePath: bundlePath } : { code: await bundleWorkflows() };
  const { interceptors, sinks } = tracingWorkerOptions(activeTracing());
  return Worker.create({
    connection,
    namespace: deps.config.temporalNamespace,
    taskQueue: deps.config.temporalTaskQueue,
    workflowBundle,
    activities: createActivities(deps),
    dataConverter: encryptingDataConverter(keys),
    // The bundle holds the workflow interceptors already.
    interceptors: { ...interceptors, workflowModules: [], activity: workerActivityInterceptors(interceptors) },
    sinks,
    maxCachedWorkflows: deps.config.temporalMaxCachedWorkflows,
    // A workflow cached on a worker that died waits this long before another worker takes its next task.
    stickyQueueScheduleToStartTimeout: '2 seconds',
  });
}

/**
 * Tracing's activity interceptors (when on) and then the engine's: tracing runs outermost, so that an
 * activity's span covers its heartbeats and records a failure as the workflow receives it (a data
 * error's SQLSTATE and names, never the values PostgreSQL's own message may hold).
 */
export function workerActivityInterceptors(tracing: WorkerOptions['interceptors']): ActivityInterceptorsFactory[] {
  return [...(tracing?.activity ?? []), ...activityInterceptors];
}
