// Trace propagation through Temporal (@temporalio/interceptors-opentelemetry): the client passes the
// active span in each start/update's headers, the workflow continues it (workflow-interceptors.ts, in
// every bundle; its spans leave the sandbox through the `exporter` sink) and so do its activities.
// Off, the client and the activities have no interceptor, and the workflow one leaves untraced runs alone.
import { fileURLToPath } from 'node:url';
import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from './provider.js';

/** Bundled with the workflows whether tracing is on or off (workflow-interceptors.ts says why); a prebuilt bundle too. */
export const WORKFLOW_INTERCEPTOR_MODULES = [fileURLToPath(new URL('./workflow-interceptors.ts', import.meta.url))];

/** Where runs started traced send their spans when this worker does not trace: nowhere, without a warning per span. */
const DISCARDED_WORKFLOW_SPANS = { exporter: { export: { fn: () => {} } } };

export function tracingClientInterceptors(tracing: Tracing | null): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}

/** The worker's interceptors and the sink of workflow spans; off, only the workflow module and a discarding sink. */
export function tracingWorkerOptions(tracing: Tracing | null): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return { interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }, sinks: DISCARDED_WORKFLOW_SPANS };
  return {
    interceptors: {
      workflowModules: WORKFLOW_INTERCEPTOR_MODULES,
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
