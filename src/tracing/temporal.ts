// Trace propagation through Temporal (@temporalio/interceptors-opentelemetry): the client passes the
// active span in each start/update's headers, the workflow continues it (workflow-interceptors.ts, in
// every bundle; its spans leave the sandbox through the `exporter` sink) and so do its activities. A
// trace that is not sampled travels under a header of its own (trace-header.ts), which the workflow only
// passes on and each activity reads as the OTel one: its span is then not recorded, and neither is
// anything below it. Off, the client and the activities have no interceptor, and the workflow one leaves
// untraced runs alone.
import { join } from 'node:path';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import type { ClientInterceptors, WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInboundCallsInterceptor, WorkerOptions } from '@temporalio/worker';
import { PROJECT_ROOT } from '../runtime/project-root.js';
import type { Tracing } from './provider.js';
import { renamedHeader, SAMPLED_TRACE_HEADER, UNSAMPLED_TRACE_HEADER } from './trace-header.js';

/** Bundled with the workflows whether tracing is on or off (workflow-interceptors.ts says why); a prebuilt bundle too. */
export const WORKFLOW_INTERCEPTOR_MODULES = [join(PROJECT_ROOT, 'src', 'tracing', 'workflow-interceptors.ts')];

/** Where runs started traced send their spans when this worker does not trace: nowhere, without a warning per span. */
const DISCARDED_WORKFLOW_SPANS = { exporter: { export: { fn: () => {} } } };

/** The fields of a client call's input that hold Temporal headers (update-with-start has two). */
const HEADER_FIELDS = ['headers', 'workflowStartHeaders', 'updateHeaders'] as const;

/** `input` as the OTel interceptor made it, its trace header renamed when the span it is sent from is not sampled. */
function withSamplingHeader<T>(input: T): T {
  if ((trace.getSpanContext(context.active())?.traceFlags ?? TraceFlags.NONE) & TraceFlags.SAMPLED) return input;
  const renamed: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const field of HEADER_FIELDS) {
    if (field in renamed)
      renamed[field] = renamedHeader(renamed[field] as Parameters<typeof renamedHeader>[0], SAMPLED_TRACE_HEADER, UNSAMPLED_TRACE_HEADER);
  }
  return renamed as T;
}

/** Each call of the OTel client interceptor, whose header the workflow reads as sampled only when it is. */
function samplingClientInterceptor(otel: OpenTelemetryWorkflowClientInterceptor): WorkflowClientInterceptor {
  type Call = (input: unknown, next: (input: unknown) => Promise<unknown>) => Promise<unknown>;
  const calls = Object.getOwnPropertyNames(OpenTelemetryWorkflowClientInterceptor.prototype).filter((name) => name !== 'constructor');
  return Object.fromEntries(
    calls.map((name) => {
      const call = (otel as unknown as Record<string, Call>)[name]!.bind(otel);
      return [
        name,
        (input: unknown, next: (input: unknown) => Promise<unknown>) => call(input, (given) => next(withSamplingHeader(given))),
      ];
    }),
  ) as WorkflowClientInterceptor;
}

export function tracingClientInterceptors(tracing: Tracing | null): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  return { workflow: [samplingClientInterceptor(new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer }))] };
}

/** The OTel activity interceptor, reading a trace that is not sampled from its own header. */
function samplingActivityInterceptor(otel: OpenTelemetryActivityInboundInterceptor): ActivityInboundCallsInterceptor {
  return {
    execute: (input, next) =>
      otel.execute({ ...input, headers: renamedHeader(input.headers, UNSAMPLED_TRACE_HEADER, SAMPLED_TRACE_HEADER)! }, next),
  };
}

/** The worker's interceptors and the sink of workflow spans; off, only the workflow module and a discarding sink. */
export function tracingWorkerOptions(tracing: Tracing | null): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return { interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES }, sinks: DISCARDED_WORKFLOW_SPANS };
  return {
    interceptors: {
      workflowModules: WORKFLOW_INTERCEPTOR_MODULES,
      activity: [
        (ctx) => ({
          inbound: samplingActivityInterceptor(new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer })),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
