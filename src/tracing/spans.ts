// The engine's own spans. Each helper runs its work directly when tracing is off, and hands it no span
// when the trace is not sampled: the span then only carries the trace context on (to `traceHeaders`),
// and nothing is formatted for it.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { activeTracing } from './provider.js';

/**
 * Runs `work` inside a span named `name` (a fixed name: identifiers go in attributes, never in names);
 * `attributes` is called only for a recorded span.
 */
export async function inSpan<T>(
  name: string,
  attributes: () => Attributes,
  work: (span: Span | null) => Promise<T>,
  kind = SpanKind.INTERNAL,
): Promise<T> {
  const tracing = activeTracing();
  if (!tracing) return work(null);
  return tracing.tracer.startActiveSpan(name, { kind }, async (span) => {
    if (!span.isRecording()) return work(null);
    span.setAttributes(attributes());
    try {
      return await work(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The W3C trace context headers (`traceparent`, `tracestate`) of the active span; none when tracing is off. */
export function traceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  if (activeTracing()) propagation.inject(context.active(), headers);
  return headers;
}

/** Runs `work` in a server span continuing the caller's W3C trace context read from `headers`. */
export async function inServerSpan<T>(
  name: string,
  headers: Record<string, string | string[] | undefined>,
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  const tracing = activeTracing();
  if (!tracing) return work(null);
  const parent = propagation.extract(context.active(), headers);
  const span = tracing.tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
  const recorded = span.isRecording() ? span : null;
  try {
    return await context.with(trace.setSpan(parent, span), () => work(recorded));
  } finally {
    recorded?.end();
  }
}
