// OpenTelemetry tracing against the real stack (engine processes, Temporal, PostgreSQL) exporting by
// OTLP/HTTP to a collector of the test: one charge creation, continuing the caller's `traceparent`,
// yields one trace covering the request, the Temporal update-with-start, the workflow, its activities,
// the ledger posting and the webhook POST, whose receiver gets a `traceparent` of that trace; and the
// traced run's history replays with tracing off as on. Sampled out (OTEL_TRACES_SAMPLER), a paid charge
// exports no span at all, yet its webhook still carries its trace, flagged not sampled, and its run replays.
import { randomBytes } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encryptingDataConverter } from '../../src/temporal/codec/data-converter.js';
import { tracingWorkerOptions } from '../../src/tracing/temporal.js';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { createCharge, newKey, payCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { liveStack } from '../helpers/live-stack.js';
import type { Stack } from '../helpers/stack.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const SERVER = 2;
const CLIENT = 3;

/** The run's history replays on a worker with tracing off and on (tracing/workflow-interceptors.ts). */
async function replaysWithTracingOffAndOn(workflowId: string): Promise<void> {
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  try {
    const client = new Client({ connection, dataConverter: encryptingDataConverter(testPayloadKeys()) });
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const tracing = {
      tracer: trace.getTracer('replay'),
      resource: new Resource({}),
      spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
      shutdown: async () => {},
    };
    for (const options of [tracingWorkerOptions(null), tracingWorkerOptions(tracing)]) {
      await Worker.runReplayHistory(
        {
          workflowBundle: { codePath: inject('workflowBundlePath') },
          dataConverter: encryptingDataConverter(testPayloadKeys()),
          ...options,
        },
        history,
      );
    }
  } finally {
    await connection.close();
  }
}

/** A merchant's client whose charge creations carry `traceparent`. */
function withTraceparent(client: Awaited<ReturnType<typeof createMerchant>>['client'], traceparent: string) {
  return {
    ...client,
    post: (path: string, body: unknown, headers: Record<string, string> = {}) => client.post(path, body, { ...headers, traceparent }),
  };
}

/** A charge created with `traceparent` and paid: the `traceparent` its `transaction.approved` webhook came with, and its workflow id. */
async function paidCharge(stack: Stack, webhooks: Receiver, traceparent: string) {
  const { client, account } = await createMerchant(stack);
  const key = newKey('sampled');
  const created = await createCharge(withTraceparent(client, traceparent), { webhookUrl: webhooks.url }, key);
  expect((await payCharge(stack, created.id)).status).toBe(200);
  await waitForStatus(client, created.id, 'approved');
  const webhook = await eventually(async () => webhooks.received.find((hook) => hook.rawBody.includes(created.id)), 20_000);
  return { webhookTraceparent: webhook.headers.traceparent, workflowId: chargeWorkflowId(account.id, key) };
}

const newTraceparent = (flags: '00' | '01') => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` };
};

/** The spans of a paid charge in its caller's trace, beside the API's (the activity that reads the simulator's answer settles, and the settlement makes the webhook's attempt 1 itself). */
const PAID_CHARGE_SPANS = [
  'UpdateWithStartWorkflow:accept',
  'HandleUpdate:accept',
  'RunWorkflow:chargeWorkflow',
  'RunActivity:confirmChargeAtRoute',
  'ledger.post',
  'webhook.post',
];

/** Registers, for the tests of a describe block, an OTLP collector, a webhook receiver and an engine exporting to the collector with `env`. */
function tracedStack(env: Record<string, string>) {
  const parts = {} as { collector: OtlpReceiver; webhooks: Receiver };
  beforeAll(async () => {
    parts.collector = await startOtlpReceiver();
    parts.webhooks = await startReceiver();
  });
  afterAll(async () => {
    await parts.collector?.close();
    await parts.webhooks?.close();
  });
  const live = liveStack(() => ({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: parts.collector.endpoint, ...env } }));
  return {
    live,
    get collector() {
      return parts.collector;
    },
    get webhooks() {
      return parts.webhooks;
    },
  };
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  const tracing = tracedStack({ OTEL_SERVICE_NAME: 'pix-engine-test', OTEL_BSP_SCHEDULE_DELAY: '100' });
  const { live } = tracing;

  it("puts a charge creation, its workflow, activities, ledger posting and webhook POST in the caller's trace", async () => {
    const { client, account } = await createMerchant(live.stack);
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const traceparent = `00-${traceId}-${callerSpanId}-01`;
    const tracedClient = withTraceparent(client, traceparent);
    const key = newKey('traced');
    const created = await createCharge(tracedClient, { webhookUrl: tracing.webhooks.url }, key);
    expect((await payCharge(live.stack, created.id)).status).toBe(200);
    await waitForStatus(client, created.id, 'approved');
    const webhook = await eventually(async () => tracing.webhooks.received[0], 20_000);

    const inTrace = () => tracing.collector.spans.filter((span) => span.traceId === traceId);
    const names = () => new Set(inTrace().map((span) => span.name));
    // A workflow's span is exported when the workflow completes: the charge's, after its settlement's POST.
    await eventually(
      async () => (['webhook.post', 'ledger.post', 'RunWorkflow:chargeWorkflow'].every((name) => names().has(name)) ? true : undefined),
      20_000,
    );
    const spans = inTrace();

    const request = spans.find((span) => span.name === 'POST /v1/transactions');
    expect(request).toMatchObject({
      kind: SERVER,
      parentSpanId: callerSpanId,
      service: 'pix-engine-test',
      attributes: { 'http.route': 'POST /v1/transactions', 'http.response.status_code': 201 },
    });
    expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(PAID_CHARGE_SPANS));
    // It was delivered: no delivery workflow was needed for retries.
    expect(spans.filter((span) => span.name.includes('webhookDeliveryWorkflow') || span.name.includes('firstAttempt'))).toEqual([]);
    expect(spans.find((span) => span.name === 'UpdateWithStartWorkflow:accept')?.parentSpanId).toBe(request!.spanId);
    expect(spans.find((span) => span.name === 'ledger.post')?.parentSpanId).toBe(
      spans.find((span) => span.name === 'RunActivity:confirmChargeAtRoute')!.spanId,
    );
    expect(spans.some((span) => span.name.startsWith('RunActivity:') && span.name !== 'RunActivity:confirmChargeAtRoute')).toBe(true);
    // No identifier in any span name of the run.
    expect(tracing.collector.spans.filter((span) => span.name.includes(created.id) || /txn_|acc_|evt_/.test(span.name))).toEqual([]);

    const post = spans.find((span) => span.name === 'webhook.post')!;
    expect(post).toMatchObject({ kind: CLIENT, attributes: { 'http.response.status_code': 200 } });
    expect(webhook.headers.traceparent).toBe(`00-${traceId}-${post.spanId}-01`);

    // The traced run replays alike on a worker with tracing off and on (tracing/workflow-interceptors.ts).
    await replaysWithTracingOffAndOn(chargeWorkflowId(account.id, key));
  });
});

describe('tracing with OTEL_TRACES_SAMPLER=traceidratio and OTEL_TRACES_SAMPLER_ARG=0', () => {
  const tracing = tracedStack({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
  const { live } = tracing;

  it("exports no span of a paid charge, even in a caller's sampled trace, and its webhook carries that trace unsampled", async () => {
    const { traceId, traceparent } = newTraceparent('01');
    const paid = await paidCharge(live.stack, tracing.webhooks, traceparent);
    expect(paid.webhookTraceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    await replaysWithTracingOffAndOn(paid.workflowId);
    // A graceful stop exports every span still buffered.
    expect(await live.stack.processes[0]!.stop()).toBe(0);
    expect(tracing.collector.spans).toEqual([]);
  });
});

describe('tracing with OTEL_TRACES_SAMPLER=parentbased_traceidratio and OTEL_TRACES_SAMPLER_ARG=0', () => {
  const tracing = tracedStack({
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0',
  });
  const { live } = tracing;

  it("follows the caller's sampled flag end to end: 01 is traced from the API to the webhook POST, 00 exports nothing", async () => {
    const unsampled = newTraceparent('00');
    const sampled = newTraceparent('01');
    const notTraced = await paidCharge(live.stack, tracing.webhooks, unsampled.traceparent);
    const traced = await paidCharge(live.stack, tracing.webhooks, sampled.traceparent);
    expect(notTraced.webhookTraceparent).toMatch(new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`));
    expect(traced.webhookTraceparent).toMatch(new RegExp(`^00-${sampled.traceId}-[0-9a-f]{16}-01$`));
    await replaysWithTracingOffAndOn(notTraced.workflowId);
    await replaysWithTracingOffAndOn(traced.workflowId);
    expect(await live.stack.processes[0]!.stop()).toBe(0);

    // Only the sampled trace was exported (the rest, the payments' admin calls included, starts unsampled at ratio 0).
    expect(new Set(tracing.collector.spans.map((span) => span.traceId))).toEqual(new Set([sampled.traceId]));
    const names = tracing.collector.spans.map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['POST /v1/transactions', ...PAID_CHARGE_SPANS]));
    const post = tracing.collector.spans.find((span) => span.name === 'webhook.post')!;
    expect(traced.webhookTraceparent).toBe(`00-${sampled.traceId}-${post.spanId}-01`);
  });
});
