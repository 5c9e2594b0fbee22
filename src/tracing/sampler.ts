// OTEL_TRACES_SAMPLER as the OTel SDK names its samplers. A parent-based one follows the caller's decision
// (the `traceparent` flag, or the span that started a workflow or activity) and decides only for a trace
// that starts here; the others decide by themselves, a ratio by the trace id, so that every process
// sampling at the same ratio agrees on each trace.
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from '../config/config.js';

export function samplerOf({ sampler, samplerRatio }: Pick<TracingConfig, 'sampler' | 'samplerRatio'>): Sampler {
  const root = sampler.endsWith('always_on')
    ? new AlwaysOnSampler()
    : sampler.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(samplerRatio);
  return sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}
