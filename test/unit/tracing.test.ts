// Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then no exporter is built, no provider is
// registered and no client or activity interceptor is installed. On, one provider with one OTLP exporter is.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { activeTracing, startTracing } from '../../src/tracing/provider.js';
import { inSpan, traceHeaders } from '../../src/tracing/spans.js';
import { tracingClientInterceptors, tracingWorkerOptions, WORKFLOW_INTERCEPTOR_MODULES } from '../../src/tracing/temporal.js';

const exporters = vi.hoisted(() => ({ urls: [] as string[] }));
vi.mock('@opentelemetry/exporter-trace-otlp-http', async (importOriginal) => {
  const original = await importOriginal<typeof import('@opentelemetry/exporter-trace-otlp-http')>();
  return {
    OTLPTraceExporter: class extends original.OTLPTraceExporter {
      constructor(config: { url: string }) {
        super(config);
        exporters.urls.push(config.url);
      }
    },
  };
});

const registeredProvider = () => (trace.getTracerProvider() as unknown as { getDelegate(): unknown }).getDelegate();

afterEach(async () => {
  await activeTracing()?.shutdown();
  exporters.urls.length = 0;
});

describe('tracing configuration', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT (empty counts as unset)', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).tracing).toBeNull();
  });

  it('reads the endpoint and OTEL_SERVICE_NAME (default pix-engine), and refuses a non-URL', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'pix-engine',
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c', OTEL_SERVICE_NAME: 'pix-a' }).tracing?.serviceName).toBe('pix-a');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
  });
});

describe('tracing off', () => {
  it('builds no exporter, registers no provider, installs no client or activity interceptor and propagates nothing', async () => {
    expect(startTracing(loadConfig({}).tracing)).toBeNull();
    expect(exporters.urls).toEqual([]);
    expect(registeredProvider()).not.toBeInstanceOf(BasicTracerProvider);
    expect(tracingClientInterceptors(activeTracing())).toBeUndefined();
    // Only the workflow module every bundle has (inert for untraced runs) and a sink discarding the spans of runs started traced.
    expect(tracingWorkerOptions(activeTracing())).toEqual({
      interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
      sinks: { exporter: { export: { fn: expect.any(Function) } } },
    });
    expect(await inSpan('ledger.post', {}, async (span) => span)).toBeNull();
    expect(traceHeaders()).toEqual({});
  });
});

describe('tracing on', () => {
  it('registers one provider exporting to <endpoint>/v1/traces, with the Temporal interceptors, and propagates W3C trace context', async () => {
    const exported: string[] = [];
    const collector = createServer((req, res) => {
      exported.push(req.url ?? '');
      req.resume().on('end', () => res.end('{}'));
    }).listen(0, '127.0.0.1');
    await once(collector, 'listening');
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const tracing = startTracing(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/` }).tracing);
    expect(tracing).not.toBeNull();
    expect(exporters.urls).toEqual([`${endpoint}/v1/traces`]);
    expect(registeredProvider()).toBeInstanceOf(BasicTracerProvider);
    expect(tracingClientInterceptors(tracing)?.workflow).toHaveLength(1);
    expect(tracingWorkerOptions(tracing)).toMatchObject({
      interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES, activity: [expect.any(Function)] },
    });
    expect(tracingWorkerOptions(tracing).sinks?.exporter).not.toEqual(tracingWorkerOptions(null).sinks?.exporter);
    const headers = await inSpan('webhook.post', {}, async (span) => {
      expect(trace.getSpan(context.active())).toBe(span);
      return traceHeaders();
    });
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await tracing!.shutdown();
    expect(exported).toEqual(['/v1/traces']);
    collector.close();
  });
});
