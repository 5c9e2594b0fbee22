// Trace propagation through Temporal (@temporalio/interceptors-opentelemetry): the client passes the
// active span in each start/update's headers, the workflow continues it (its interceptors are bundled
// with the workflow code; its spans leave the sandbox through the `exporter` sink) and so do its
// activities. Only installed when tracing is on: off, the client, the worker and the bundle are as before.
import { createRequire } from 'node:module';
import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from './provider.js';

/** The workflow interceptor module to bundle with the workflows (a prebuilt bundle must have been built with it). */
export const TRACING_WORKFLOW_MODULES = [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

export function tracingClientInterceptors(tracing: Tracing | null): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}

/** The worker's interceptors and the sink of workflow spans; nothing when tracing is off. */
export function tracingWorkerOptions(tracing: Tracing | null): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return {};
  return {
    interceptors: {
      workflowModules: TRACING_WORKFLOW_MODULES,
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
