// GET /metrics over HTTP against the real stack: a charge created, paid and notified moves the
// counters and histograms it should (read with a parser of the exposition format), no label carries
// an identifier, the Temporal worker's own metrics are in the same scrape, the endpoint needs no
// token while the rest of the admin port still does, and a worker-only process serves its own.
import { describe, expect, it } from 'vitest';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { liveStack } from '../helpers/live-stack.js';
import { freePort } from '../../src/runtime/free-port.js';
import { parsePrometheusText, sampleValue, type Family } from '../helpers/prometheus-text.js';
import { admin, http, startStack } from '../helpers/stack.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/** Prefixes of the engine's identifiers and secrets, and of request ids: none may be a label value. */
const ID_LIKE = /(txn_|out_|acc_|key_|med_|evt_|whd_|req_|pix_live_|pix_test_)/;

async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await http('GET', url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(res.text);
}

function labelValues(families: Map<string, Family>): string[] {
  return [...families.values()].flatMap((family) => family.samples.flatMap((sample) => Object.values(sample.labels)));
}

describe('GET /metrics on the admin port', () => {
  const live = liveStack();
  const metricsUrl = () => live.stack.adminUrl.replace(/\/admin$/, '/metrics');

  it('counts a charge created, paid and notified, with route templates and bounded labels, beside the Temporal worker metrics', async () => {
    const receiver = await startReceiver();
    try {
      const { client } = await createMerchant(live.stack);
      const before = await scrape(metricsUrl());
      const created = await createCharge(client, { webhookUrl: receiver.url });
      expect((await payCharge(live.stack, created.id)).status).toBe(200);
      await waitForStatus(client, created.id, 'approved');
      await eventually(async () => receiver.received.length >= 1 || undefined, 20_000);
      expect((await http('GET', `${live.stack.baseUrl}/nothing-here/${created.id}`)).status).toBe(404);

      const after = await eventually(async () => {
        const families = await scrape(metricsUrl());
        return sampleValue(families, 'pix_webhook_attempts_total', { outcome: 'success' }) >
          sampleValue(before, 'pix_webhook_attempts_total', { outcome: 'success' })
          ? families
          : undefined;
      }, 10_000);
      const delta = (name: string, labels: Record<string, string> = {}) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);

      const creation = { method: 'POST', route: 'POST /v1/transactions', status: '201' };
      expect(delta('pix_http_requests_total', creation)).toBe(1);
      expect(delta('pix_http_request_duration_seconds_count', creation)).toBe(1);
      expect(delta('pix_http_request_duration_seconds_bucket', { ...creation, le: '+Inf' })).toBe(1);
      expect(delta('pix_http_request_duration_seconds_sum', creation)).toBeGreaterThan(0);
      expect(delta('pix_http_requests_total', { method: 'GET', route: 'GET /v1/transactions/:id', status: '200' })).toBeGreaterThanOrEqual(
        1,
      );
      expect(delta('pix_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
      expect(delta('pix_http_requests_total', { method: 'POST', route: 'POST /admin/simulator/charges/:id/pay', status: '200' })).toBe(1);

      expect(delta('pix_transactions_total', { type: 'payment', status: 'pending' })).toBe(1);
      expect(delta('pix_transactions_total', { type: 'payment', status: 'approved' })).toBe(1);
      expect(delta('pix_transactions_total', { type: 'payment', status: 'failed' })).toBe(0);
      expect(delta('pix_ledger_postings_total')).toBe(1);
      expect(delta('pix_webhook_attempts_total', { outcome: 'success' })).toBe(1);
      expect(delta('pix_webhook_attempts_total', { outcome: 'failure' })).toBe(0);
      expect(delta('pix_webhook_delivery_seconds_count', { event: 'transaction.approved' })).toBe(1);

      expect(after.get('pix_meds_open')?.type).toBe('gauge');
      // The MED gauges are read from the database at scrape time: with a MED opened, they say what it holds.
      const opened = await admin(live.stack, 'POST', '/simulator/meds', { transactionId: created.id, reason: 'fraud' });
      expect(opened.status, opened.text).toBe(201);
      const withMed = await scrape(metricsUrl());
      const [meds] = await live.sql<{ open: number; overdue: number }[]>`
        select count(*)::int as open, (count(*) filter (where deadline_at <= now()))::int as overdue from meds where status = 'open'`;
      expect(meds!.open).toBeGreaterThan(0);
      expect(sampleValue(withMed, 'pix_meds_open')).toBe(meds!.open);
      expect(withMed.get('pix_meds_overdue')?.samples).toHaveLength(1);
      expect(sampleValue(withMed, 'pix_meds_overdue')).toBe(meds!.overdue);
      const temporal = [...after.values()].filter((family) => family.name.startsWith('temporal_') && family.samples.length > 0);
      // A simulator charge runs local activities only (local-settlement).
      expect(temporal.map((family) => family.name)).toEqual(
        expect.arrayContaining(['temporal_workflow_task_execution_latency', 'temporal_local_activity_execution_latency']),
      );

      const values = labelValues(after);
      expect(values.filter((value) => ID_LIKE.test(value) || value.includes(created.id))).toEqual([]);
      expect(values.some((value) => value.startsWith('/'))).toBe(false); // a raw path
    } finally {
      await receiver.close();
    }
  });

  it('counts the rate limiter refusals of an API key', async () => {
    const { client } = await createMerchant(live.stack);
    const before = sampleValue(await scrape(metricsUrl()), 'pix_rate_limit_refusals_total', { limit: 'api_key' });
    let refused = 0;
    for (let i = 0; i < 102; i += 1) if ((await client.get('/balance')).status === 429) refused += 1;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(sampleValue(await scrape(metricsUrl()), 'pix_rate_limit_refusals_total', { limit: 'api_key' }) - before).toBe(refused);
  });

  it('answers without a token while the rest of the admin port still needs it; other methods are 405', async () => {
    const res = await http('GET', metricsUrl());
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE pix_http_requests_total counter');
    expect((await http('GET', `${live.stack.adminUrl}/accounts`)).status).toBe(401);
    expect((await http('GET', `${live.stack.adminUrl}/ledger/check`)).status).toBe(401);
    const post = await http('POST', metricsUrl());
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body.error.code).toBe('method_not_allowed');
  });
});

describe('pix_ledger_check_ok of a process', () => {
  // A process of its own: no ledger check ran in it before this test.
  const fresh = liveStack();
  const metricsUrl = () => fresh.stack.adminUrl.replace(/\/admin$/, '/metrics');

  it('sets pix_ledger_check_ok when the ledger check runs (unknown before, so the ledger alert cannot fire on a process that never checked)', async () => {
    expect(sampleValue(await scrape(metricsUrl()), 'pix_ledger_check_ok')).toBeNaN();
    const asked = Date.now();
    const res = await admin(fresh.stack, 'GET', '/ledger/check');
    expect(res.body.data.ok).toBe(true);
    const answered = Date.now();
    const families = await scrape(metricsUrl());
    expect(sampleValue(families, 'pix_ledger_check_ok')).toBe(1);
    // The time of this check: not before it was asked for, not after its answer arrived.
    const checkedAtMs = Math.round(sampleValue(families, 'pix_ledger_check_timestamp_seconds') * 1000);
    expect(checkedAtMs).toBeGreaterThanOrEqual(asked);
    expect(checkedAtMs).toBeLessThanOrEqual(answered);
  });
});

describe('GET /metrics of a worker-only process (METRICS_PORT)', () => {
  it('serves the worker process metrics, with its transactions and the Temporal worker metrics, on METRICS_PORT', async () => {
    const metricsPort = await freePort();
    const stack = await startStack({ layout: 'split', env: { METRICS_PORT: String(metricsPort) } });
    try {
      const { client } = await createMerchant(stack);
      const created = await createCharge(client);
      expect((await payCharge(stack, created.id)).status).toBe(200);
      await waitForStatus(client, created.id, 'approved');
      const worker = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(sampleValue(worker, 'pix_transactions_total', { type: 'payment', status: 'approved' })).toBe(1);
      expect([...worker.keys()].some((name) => name.startsWith('temporal_'))).toBe(true);
      expect((await http('GET', `http://127.0.0.1:${metricsPort}/admin/accounts`)).status).toBe(404);
      // The api process: its requests, and no transaction (the worker changed the statuses).
      const api = await scrape(stack.adminUrl.replace(/\/admin$/, '/metrics'));
      expect(sampleValue(api, 'pix_http_requests_total', { method: 'POST', route: 'POST /v1/transactions', status: '201' })).toBe(1);
      expect(sampleValue(api, 'pix_transactions_total', { type: 'payment', status: 'approved' })).toBe(0);
    } finally {
      await stack.stop();
    }
  });
});
