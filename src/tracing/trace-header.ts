// The Temporal headers that carry a trace through workflows and activities (temporal.ts, and inside the
// workflow sandbox workflow-interceptors.ts; so nothing but plain code here). Both hold the same payload,
// the W3C context as @temporalio/interceptors-opentelemetry writes it. Which one a start carries is the
// run's sampling decision, a fact of its history: only a sampled trace's start runs the OTel interceptors.
import type { Headers } from '@temporalio/common';

/** A sampled trace: the OTel interceptors' own header (instrumentation.ts of @temporalio/interceptors-opentelemetry). */
export const SAMPLED_TRACE_HEADER = '_tracer-data';
/** A trace that is not sampled: passed on to what the run starts, and nothing else done with it. */
export const UNSAMPLED_TRACE_HEADER = 'engine-trace-unsampled';

/** `headers` with the payload of `from` under `to` instead; as they are without `from`, or with `to` already. */
export function renamedHeader(headers: Headers | undefined, from: string, to: string): Headers | undefined {
  if (!headers || !(from in headers) || to in headers) return headers;
  const { [from]: payload, ...rest } = headers;
  return { ...rest, [to]: payload! };
}
