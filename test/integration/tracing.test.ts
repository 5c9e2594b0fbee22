// OpenTelemetry tracing against the real stack (engine processes, Temporal, PostgreSQL) exporting by
// OTLP/HTTP to a collector of the test: one charge creation, continuing the caller's `traceparent`,
// yields one trace covering the request, the Temporal update-with-start, the workflow, its activities,
// the ledger posting and the webhook POST, whose receiver gets a `traceparent` of that trace.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCharge, newKey, payCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { liveStack } from '../helpers/live-stack.js';
import { startOtlpReceiver, type OtlpReceiver } from '../helpers/otlp-receiver.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const SERVER = 2;
const CLIENT = 3;

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let collector: OtlpReceiver;
  let webhooks: Receiver;
  beforeAll(async () => {
    collector = await startOtlpReceiver();
    webhooks = await startReceiver();
  });
  afterAll(async () => {
    await collector?.close();
    await webhooks?.close();
  });
  // No prebuilt bundle: the worker bundles the workflows with the tracing interceptors itself.
  const live = liveStack(() => ({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: 'pix-engine-test', OTEL_BSP_SCHEDULE_DELAY: '100', TEMPORAL_WORKFLOW_BUNDLE: '' },
  }));

  it('puts a charge creation, its workflow, activities, ledger posting and webhook POST in the caller\'s trace', async () => {
    const { client } = await createMerchant(live.stack);
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const traceparent = `00-${traceId}-${callerSpanId}-01`;
    const tracedClient = { ...client, post: (path: string, body: unknown, headers: Record<string, string> = {}) => client.post(path, body, { ...headers, traceparent }) };
    const created = await createCharge(tracedClient, { webhookUrl: webhooks.url }, newKey('traced'));
    expect((await payCharge(live.stack, created.id)).status).toBe(200);
    await waitForStatus(client, created.id, 'approved');
    const webhook = await eventually(async () => webhooks.received[0], 20_000);

    const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
    const names = () => new Set(inTrace().map((span) => span.name));
    // A workflow's span is exported when the workflow completes: the delivery's, after its POST.
    await eventually(async () => (['webhook.post', 'ledger.post', 'RunWorkflow:webhookDeliveryWorkflow'].every((name) => names().has(name)) ? true : undefined), 20_000);
    const spans = inTrace();

    const request = spans.find((span) => span.name === 'POST /v1/transactions');
    expect(request).toMatchObject({ kind: SERVER, parentSpanId: callerSpanId, service: 'pix-engine-test', attributes: { 'http.route': 'POST /v1/transactions', 'http.response.status_code': 201 } });
    expect(spans.map((span) => span.name)).toEqual(
      expect.arrayContaining([
        'UpdateWithStartWorkflow:accept',
        'RunWorkflow:chargeWorkflow',
        'RunActivity:settleChargePaid',
        'ledger.post',
        'RunWorkflow:webhookDeliveryWorkflow',
        'RunActivity:attemptWebhookDelivery',
        'webhook.post',
      ]),
    );
    expect(spans.find((span) => span.name === 'UpdateWithStartWorkflow:accept')?.parentSpanId).toBe(request!.spanId);
    expect(spans.find((span) => span.name === 'ledger.post')?.parentSpanId).toBe(spans.find((span) => span.name === 'RunActivity:settleChargePaid')!.spanId);
    expect(spans.some((span) => span.name.startsWith('RunActivity:') && span.name !== 'RunActivity:settleChargePaid')).toBe(true);
    // No identifier in any span name of the run.
    expect(collector.spans.filter((span) => span.name.includes(created.id) || /txn_|acc_|evt_/.test(span.name))).toEqual([]);

    const post = spans.find((span) => span.name === 'webhook.post')!;
    expect(post).toMatchObject({ kind: CLIENT, attributes: { 'http.response.status_code': 200 } });
    expect(webhook.headers.traceparent).toBe(`00-${traceId}-${post.spanId}-01`);
  });
});
