// Bundled with the workflows, always (src/worker.ts, the tests' and scripts' bundles): the OTel
// workflow interceptors, for the runs that were started traced only. A workflow is traced when its start
// carried the OTel client interceptor's header, i.e. it was started by a process with tracing on: a fact
// of its history, so that its replay does the same whatever the replaying worker's configuration.
// The interceptors add awaits that reorder a workflow's concurrent commands (a MED's timer and its
// activity): enabled or disabled by the worker's own setting, they would break the replay of the runs
// in flight when tracing is turned on or off. An untraced run goes straight to `next`, as without them.
import type { WorkflowInterceptors } from '@temporalio/workflow';

const TRACE_HEADER = '_tracer-data'; // @temporalio/interceptors-opentelemetry's instrumentation.ts

const INBOUND = ['execute', 'handleSignal', 'handleUpdate', 'validateUpdate', 'handleQuery'] as const;
const OUTBOUND = [
  'scheduleActivity',
  'scheduleLocalActivity',
  'startNexusOperation',
  'startChildWorkflowExecution',
  'continueAsNew',
  'signalWorkflow',
  'getLogAttributes',
  'getMetricTags',
] as const;
const INTERNALS = ['dispose'] as const;

type OtelWorkflow = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow/index.js');
type Method = (input: unknown, next: (input: unknown) => unknown) => unknown;
type Interceptor = Record<string, Method | undefined>;

/** An interceptor whose `methods` call `traced()`'s OTel interceptor when the run is traced, else `next` directly. */
function gated(methods: readonly string[], traced: () => Interceptor | null): Interceptor {
  return Object.fromEntries(
    methods.map((name) => [
      name,
      (input: unknown, next: (input: unknown) => unknown) => {
        const method = traced()?.[name];
        return method ? method.call(traced(), input, next) : next(input);
      },
    ]),
  );
}

export const interceptors = (): WorkflowInterceptors => {
  let otel: { inbound: Interceptor; outbound: Interceptor; internals: Interceptor } | null = null;
  const inbound = gated(INBOUND, () => otel?.inbound ?? null);
  const execute = inbound.execute!;
  // The start's headers decide, before any handler or command of the run.
  inbound.execute = (input, next) => {
    if (TRACE_HEADER in ((input as { headers: object }).headers ?? {})) {
      // Loaded by the first traced run only: an engine that never traces never runs OTel in its workflows.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const workflow = require('@temporalio/interceptors-opentelemetry/lib/workflow/index.js') as OtelWorkflow;
      otel = {
        inbound: new workflow.OpenTelemetryInboundInterceptor() as unknown as Interceptor,
        outbound: new workflow.OpenTelemetryOutboundInterceptor() as unknown as Interceptor,
        internals: new workflow.OpenTelemetryInternalsInterceptor() as unknown as Interceptor,
      };
    }
    return execute(input, next);
  };
  return {
    inbound: [inbound],
    outbound: [gated(OUTBOUND, () => otel?.outbound ?? null)],
    internals: [gated(INTERNALS, () => otel?.internals ?? null)],
  } as WorkflowInterceptors;
};
