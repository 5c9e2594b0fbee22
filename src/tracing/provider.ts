// The process's OpenTelemetry tracer provider: installed only when OTEL_EXPORTER_OTLP_ENDPOINT is set
// (config.ts), so that tracing off costs nothing (no provider, no exporter, no interceptor; the hooks
// of http/edge.ts, ledger/post.ts and webhooks/deliver.ts run their work directly). On, the sampler of
// OTEL_TRACES_SAMPLER decides which traces are recorded; the others only carry their context on.
import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { TracingConfig } from '../config/config.js';
import { samplerOf } from './sampler.js';

export interface Tracing {
  tracer: Tracer;
  resource: Resource;
  /** Where workflow spans, which the worker receives through a sink, are handed. */
  spanProcessor: SpanProcessor;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

let current: Tracing | null = null;

/** The running tracing, or null when it is off. */
export function activeTracing(): Tracing | null {
  return current;
}

/** Installs the provider (W3C trace context, AsyncLocalStorage context) once per process; null when off. */
export function startTracing(config: TracingConfig | null): Tracing | null {
  if (config === null || current !== null) return current;
  const resource = new Resource({ 'service.name': config.serviceName });
  // The exporter sends OTLP/HTTP JSON to <endpoint>/v1/traces, as the OTel spec derives it from the base endpoint.
  const exporter = new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const spanProcessor = new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, sampler: samplerOf(config), spanProcessors: [spanProcessor] });
  provider.register();
  const tracing: Tracing = {
    tracer: trace.getTracer('pix-engine'),
    resource,
    spanProcessor,
    shutdown: async () => {
      try {
        await provider.shutdown();
      } finally {
        trace.disable();
        current = null;
      }
    },
  };
  current = tracing;
  return tracing;
}
