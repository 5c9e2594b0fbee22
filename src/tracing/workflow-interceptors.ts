// Bundled with the workflows, always (src/worker.ts, the tests' and scripts' bundles): the OTel
// workflow interceptors, for the runs whose trace is sampled only. A run is traced when its start carried
// the OTel client interceptor's header, i.e. it was started in a sampled trace by a process with tracing on
// (temporal.ts; trace-header.ts): a fact of its history, so that its replay does the same whatever the
// replaying worker's configuration. The interceptors add awaits that reorder a workflow's concurrent
// commands (a MED's timer and its activity): enabled or disabled by the worker's own setting, they would
// break the replay of the runs in flight when tracing is turned on or off. Any other run goes straight to
// `next`, as without them; one started in a trace that is not sampled only passes that trace's header on
// to the activities, workflows and signals it starts (no await, no span, no sink call), so that they too
// know the trace is not sampled.
import type { Headers, WorkflowInterceptors } from '@temporalio/workflow';
import { renamedHeader, SAMPLED_TRACE_HEADER, UNSAMPLED_TRACE_HEADER } from './trace-header.js';

const INBOUND = ['execute', 'handleSignal', 'handleUpdate', 'validateUpdate', 'handleQuery'] as const;
/** The outbound calls whose input carries Temporal headers to what the run starts or signals. */
const PROPAGATING = ['scheduleActivity', 'scheduleLocalActivity', 'startChildWorkflowExecution', 'continueAsNew', 'signalWorkflow'];
const OUTBOUND = [...PROPAGATING, 'startNexusOperation', 'getLogAttributes', 'getMetricTags'] as const;
const INTERNALS = ['dispose'] as const;

type OtelWorkflow = typeof import('@temporalio/interceptors-opentelemetry/lib/workflow/index.js');
type Input = { headers?: Headers };
type Next = (input: Input) => unknown;
type Method = (input: Input, next: Next) => unknown;
type Interceptor = Record<string, Method | undefined>;

/**
 * An interceptor whose `methods` call `traced()`'s OTel interceptor, with `adapt(input)`, when the run is
 * traced, else `untraced(name)`.
 */
function gated(
  methods: readonly string[],
  traced: () => Interceptor | null,
  untraced: (name: string) => Method,
  adapt: (input: Input) => Input = (input) => input,
): Interceptor {
  return Object.fromEntries(
    methods.map((name) => {
      const otherwise = untraced(name);
      return [
        name,
        (input: Input, next: Next) => {
          const method = traced()?.[name];
          return method ? method.call(traced(), adapt(input), next) : otherwise(input, next);
        },
      ];
    }),
  );
}

const direct: Method = (input, next) => next(input);

/** A message to a traced run from a trace that is not sampled: the OTel interceptor continues that trace, unrecorded. */
function asOtelInput(input: Input): Input {
  const headers = renamedHeader(input.headers, UNSAMPLED_TRACE_HEADER, SAMPLED_TRACE_HEADER);
  return headers === input.headers ? input : { ...input, headers };
}

export const interceptors = (): WorkflowInterceptors => {
  let otel: { inbound: Interceptor; outbound: Interceptor; internals: Interceptor } | null = null;
  /** The header of the trace, not sampled, that this run was started in. */
  let unsampled: Headers[string] | undefined;
  const inbound = gated(
    INBOUND,
    () => otel?.inbound ?? null,
    () => direct,
    asOtelInput,
  );
  const execute = inbound.execute!;
  // The start's headers decide, before any handler or command of the run.
  inbound.execute = (input, next) => {
    const headers = input.headers ?? {};
    if (SAMPLED_TRACE_HEADER in headers) {
      // Loaded by the first traced run only: an engine that never traces never runs OTel in its workflows.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const workflow = require('@temporalio/interceptors-opentelemetry/lib/workflow/index.js') as OtelWorkflow;
      otel = {
        inbound: new workflow.OpenTelemetryInboundInterceptor() as unknown as Interceptor,
        outbound: new workflow.OpenTelemetryOutboundInterceptor() as unknown as Interceptor,
        internals: new workflow.OpenTelemetryInternalsInterceptor() as unknown as Interceptor,
      };
    } else unsampled = headers[UNSAMPLED_TRACE_HEADER];
    return execute(input, next);
  };
  const passOn: Method = (input, next) =>
    next(unsampled ? { ...input, headers: { ...input.headers, [UNSAMPLED_TRACE_HEADER]: unsampled } } : input);
  return {
    inbound: [inbound],
    outbound: [
      gated(
        OUTBOUND,
        () => otel?.outbound ?? null,
        (name) => (PROPAGATING.includes(name) ? passOn : direct),
      ),
    ],
    internals: [
      gated(
        INTERNALS,
        () => otel?.internals ?? null,
        () => direct,
      ),
    ],
  } as WorkflowInterceptors;
};
