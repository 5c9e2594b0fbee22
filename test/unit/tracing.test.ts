// Tracing is off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then no exporter is built, no provider is
// registered and no client or activity interceptor is installed. On, one provider with one OTLP exporter is,
// with the sampler of OTEL_TRACES_SAMPLER: a trace it does not sample gets no span to fill and reaches
// workflows under a header of its own.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { activeTracing, startTracing } from '../../src/tracing/provider.js';
import { inSpan, traceHeaders } from '../../src/tracing/spans.js';
import { tracingClientInterceptors, tracingWorkerOptions, WORKFLOW_INTERCEPTOR_MODULES } from '../../src/tracing/temporal.js';
import { SAMPLED_TRACE_HEADER, UNSAMPLED_TRACE_HEADER } from '../../src/tracing/trace-header.js';
import { interceptors as workflowInterceptors } from '../../src/tracing/workflow-interceptors.js';

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
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://c', OTEL_SERVICE_NAME: 'pix-a' }).tracing?.serviceName).toBe('pix-a');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
  });
});

describe('sampling configuration', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) return err.message;
      throw err;
    }
    return null;
  };

  it('reads every standard sampler and a ratio from 0 to 1', () => {
    for (const sampler of ['always_on', 'always_off', 'parentbased_always_on', 'parentbased_always_off'])
      expect(loadConfig({ ...endpoint, OTEL_TRACES_SAMPLER: sampler }).tracing).toMatchObject({ sampler, samplerRatio: 1 });
    for (const [text, ratio] of [
      ['0', 0],
      ['0.1', 0.1],
      ['.25', 0.25],
      ['1', 1],
      ['1.0', 1],
    ] as const) {
      for (const sampler of ['traceidratio', 'parentbased_traceidratio'])
        expect(loadConfig({ ...endpoint, OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: text }).tracing).toMatchObject({
          sampler,
          samplerRatio: ratio,
        });
    }
  });

  it('refuses an unknown sampler or a ratio outside [0, 1] at start, tracing on or off, and warns of an ignored ratio', () => {
    expect(refusal({ OTEL_TRACES_SAMPLER: 'ratio' })).toBe(
      'OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio, got "ratio"',
    );
    expect(refusal({ ...endpoint, OTEL_TRACES_SAMPLER: 'parentbased_jaeger_remote' })).toMatch(/^OTEL_TRACES_SAMPLER must be one of/);
    for (const text of ['1.5', '-0.1', '10%', 'abc', '1e-1', '0x1', ' 0.5'])
      expect(refusal({ ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: text })).toBe(
        `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1 (the share of traces sampled, e.g. 0.1), got "${text}"`,
      );
    expect(refusal({ OTEL_TRACES_SAMPLER_ARG: '2' })).toMatch(/^OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
    expect(loadConfig({ ...endpoint, OTEL_TRACES_SAMPLER: 'always_on', OTEL_TRACES_SAMPLER_ARG: '0.5' }).warnings).toEqual([
      'OTEL_TRACES_SAMPLER_ARG is ignored: only a traceidratio sampler reads it, and OTEL_TRACES_SAMPLER is always_on',
    ]);
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
    expect(
      await inSpan(
        'ledger.post',
        () => ({}),
        async (span) => span,
      ),
    ).toBeNull();
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
    const headers = await inSpan(
      'webhook.post',
      () => ({}),
      async (span) => {
        expect(trace.getSpan(context.active())).toBe(span);
        return traceHeaders();
      },
    );
    expect(headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await tracing!.shutdown();
    expect(exported).toEqual(['/v1/traces']);
    collector.close();
  });
});

describe('tracing on, sampling', () => {
  let endpoint = '';
  const collector = createServer((req, res) => req.resume().on('end', () => res.end('{}')));
  beforeAll(async () => {
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    collector.close();
  });
  const start = (env: Record<string, string>) => startTracing(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...env }).tracing)!;
  /** Whether `inSpan` handed its work a span that records. */
  const recorded = (span: { isRecording(): boolean } | null) => span?.isRecording() ?? false;
  /** A caller's context, as a `traceparent` with `flags` brings it. */
  const callerContext = (flags: TraceFlags) =>
    trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: flags, isRemote: true });
  const inCaller = <T>(flags: TraceFlags | null, work: () => Promise<T>) =>
    flags === null ? work() : context.with(callerContext(flags), work);

  /** What a client interceptor's `start` sends on, in the context of a caller with `flags` (null: none). */
  async function startHeaders(interceptor: WorkflowClientInterceptor, flags: TraceFlags | null) {
    let sent: Record<string, unknown> = {};
    const input = { workflowType: 'chargeWorkflow', headers: {}, options: { workflowId: 'w' } };
    await inCaller(flags, () =>
      interceptor.start!(input as never, async (given) => {
        sent = given.headers;
        return 'run';
      }),
    );
    return Object.keys(sent);
  }

  it('hands no span to work it does not sample, yet passes the unsampled trace on to HTTP and to workflows', async () => {
    const tracing = start({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
    const client = tracingClientInterceptors(tracing)!.workflow as WorkflowClientInterceptor[];
    // A trace that starts here: ratio 0 samples none.
    let attributesAsked = 0;
    const root = await inSpan(
      'ledger.post',
      () => ({ asked: ++attributesAsked }),
      async (span) => ({ span, headers: traceHeaders() }),
    );
    expect(root.span).toBeNull();
    expect(attributesAsked).toBe(0);
    expect(root.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(await startHeaders(client[0]!, null)).toEqual([UNSAMPLED_TRACE_HEADER]);
    // A caller's decision is followed: not sampled, nothing; sampled, recorded whatever the ratio.
    const unsampled = await inCaller(TraceFlags.NONE, () =>
      inSpan(
        'webhook.post',
        () => ({}),
        async (span) => ({ span, headers: traceHeaders() }),
      ),
    );
    expect(unsampled.span).toBeNull();
    expect(unsampled.headers.traceparent).toMatch(new RegExp(`^00-${'a'.repeat(32)}-[0-9a-f]{16}-00$`));
    expect(await startHeaders(client[0]!, TraceFlags.NONE)).toEqual([UNSAMPLED_TRACE_HEADER]);
    const sampled = await inCaller(TraceFlags.SAMPLED, () =>
      inSpan(
        'webhook.post',
        () => ({ asked: ++attributesAsked }),
        async (span) => ({ recording: recorded(span), headers: traceHeaders() }),
      ),
    );
    expect(sampled.recording).toBe(true);
    expect(attributesAsked).toBe(1);
    expect(sampled.headers.traceparent).toMatch(new RegExp(`^00-${'a'.repeat(32)}-[0-9a-f]{16}-01$`));
    expect(await startHeaders(client[0]!, TraceFlags.SAMPLED)).toEqual([SAMPLED_TRACE_HEADER]);
  });

  it('ignores the caller with a sampler that is not parent-based', async () => {
    const off = start({ OTEL_TRACES_SAMPLER: 'always_off' });
    const client = tracingClientInterceptors(off)!.workflow as WorkflowClientInterceptor[];
    expect(
      await inCaller(TraceFlags.SAMPLED, () =>
        inSpan(
          'ledger.post',
          () => ({}),
          async (span) => span,
        ),
      ),
    ).toBeNull();
    expect(await startHeaders(client[0]!, TraceFlags.SAMPLED)).toEqual([UNSAMPLED_TRACE_HEADER]);
    await off.shutdown();
    const on = start({ OTEL_TRACES_SAMPLER: 'always_on' });
    expect(
      await inCaller(TraceFlags.NONE, () =>
        inSpan(
          'ledger.post',
          () => ({}),
          async (span) => recorded(span),
        ),
      ),
    ).toBe(true);
    expect(await startHeaders((tracingClientInterceptors(on)!.workflow as WorkflowClientInterceptor[])[0]!, TraceFlags.NONE)).toEqual([
      SAMPLED_TRACE_HEADER,
    ]);
  });
});

describe('workflow interceptors of a run whose trace is not sampled', () => {
  const payload = { metadata: { encoding: new Uint8Array([1]) }, data: new Uint8Array([2]) };
  const other = { metadata: {}, data: new Uint8Array([3]) };
  type Call = (input: object, next: (input: object) => unknown) => unknown;
  /** A run's interceptors after its start with `startHeaders`: each call as its `next` receives it. */
  async function run(startHeaders: Record<string, unknown>) {
    const { inbound, outbound } = workflowInterceptors();
    const [handlers, commands] = [inbound![0] as unknown as Record<string, Call>, outbound![0] as unknown as Record<string, Call>];
    const started = (await handlers.execute!({ headers: startHeaders, args: [] }, async (input) => input)) as object;
    const passed = (interceptor: Record<string, Call>, name: string, input: object) => interceptor[name]!(input, (given) => given);
    return { started, passed: (name: string, input: object) => passed(name in commands ? commands : handlers, name, input) };
  }

  it("passes the start's header on to every activity, workflow and signal it starts, and leaves the rest alone", async () => {
    const { started, passed } = await run({ [UNSAMPLED_TRACE_HEADER]: payload });
    expect(started).toEqual({ headers: { [UNSAMPLED_TRACE_HEADER]: payload }, args: [] });
    for (const name of ['scheduleActivity', 'scheduleLocalActivity', 'startChildWorkflowExecution', 'continueAsNew', 'signalWorkflow'])
      expect(passed(name, { headers: { other }, seq: 1 })).toEqual({ headers: { other, [UNSAMPLED_TRACE_HEADER]: payload }, seq: 1 });
    const update = { headers: { [SAMPLED_TRACE_HEADER]: other }, name: 'pay' };
    expect(passed('handleUpdate', update)).toBe(update);
    const attributes = { workflowId: 'w' };
    expect(passed('getLogAttributes', attributes)).toBe(attributes);
  });

  it('adds nothing to a run started outside any trace', async () => {
    const { passed } = await run({});
    const activity = { headers: { other }, seq: 1 };
    expect(passed('scheduleActivity', activity)).toBe(activity);
  });
});
