// The delivery workflow's retry schedule on the time-skipping test server: the activity is replaced by
// a receiver that fails a given number of times, and the attempts are timed on the server's clock.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { AttemptInput, AttemptOutcome } from '../../src/webhooks/attempt.js';
import { MAX_AUTOMATIC_ATTEMPTS, type RetrySchedule } from '../../workflows/webhook-delivery.contract.js';
import type { WebhookDeliveryInput, WebhookDeliveryResult } from '../../workflows/webhook-delivery.contract.js';
import { timeSkippingServer } from '../helpers/time-skipping.js';

const server = timeSkippingServer('webhook-delivery.ts');
const DEFAULTS = loadConfig({});
const DEFAULT_SCHEDULE: RetrySchedule = { initialMs: DEFAULTS.webhookRetryInitialMs, maxMs: DEFAULTS.webhookRetryMaxMs };



interface Call {
  input: AttemptInput;
  atMs: number;
}

/** Runs one delivery workflow against a fake attempt activity that answers `outcomes` in turn. */
async function runDelivery(input: Omit<WebhookDeliveryInput, 'deliveryId'>, outcomes: (n: number) => AttemptOutcome) {
  const calls: Call[] = [];
  const { worker, taskQueue } = await server.worker('webhooks', {
    async attemptWebhookDelivery(attempt: AttemptInput): Promise<AttemptOutcome> {
      calls.push({ input: attempt, atMs: await server.env.currentTimeMs() });
      return outcomes(calls.length);
    },
  });
  const deliveryId = `whd_${randomBytes(8).toString('hex')}`;
  const result: WebhookDeliveryResult = await worker.runUntil(
    server.env.client.workflow.execute('webhookDeliveryWorkflow', { taskQueue, workflowId: `webhook-delivery:${deliveryId}`, args: [{ deliveryId, ...input }] }),
  );
  const gaps = calls.slice(1).map((call, i) => call.atMs - calls[i]!.atMs);
  return { result, calls, gaps, deliveryId };
}

/** Each wait is the scheduled one; the activity itself takes a few real milliseconds on top. */
function expectGaps(gaps: number[], expected: number[]) {
  expect(gaps).toHaveLength(expected.length);
  gaps.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(expected[i]!);
    expect(gap).toBeLessThan(expected[i]! + 1000);
  });
}

describe('webhook delivery workflow: retry schedule', () => {
  it('fails 3 times, then succeeds: 4 attempts, waiting 5 s, 10 s and 20 s with the defaults', async () => {
    const { result, calls, gaps, deliveryId } = await runDelivery(
      { trigger: 'automatic', attempts: MAX_AUTOMATIC_ATTEMPTS, schedule: DEFAULT_SCHEDULE },
      (n) => (n <= 3 ? 'failed' : 'delivered'),
    );
    expect(result).toEqual({ outcome: 'delivered', attempts: 4 });
    expect(calls.map((c) => c.input)).toEqual(
      [1, 2, 3, 4].map(() => ({ deliveryId, trigger: 'automatic', lastAttempt: false })),
    );
    expectGaps(gaps, [5000, 10_000, 20_000]);
  });

  it('always fails: exactly 8 attempts, the last one marked as last, waits doubling from 5 s to 320 s', async () => {
    const { result, calls, gaps } = await runDelivery(
      { trigger: 'automatic', attempts: MAX_AUTOMATIC_ATTEMPTS, schedule: DEFAULT_SCHEDULE },
      () => 'failed',
    );
    expect(MAX_AUTOMATIC_ATTEMPTS).toBe(8);
    expect(result).toEqual({ outcome: 'failed', attempts: 8 });
    expect(calls.map((c) => c.input.lastAttempt)).toEqual([false, false, false, false, false, false, false, true]);
    expectGaps(gaps, [5000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000]);
  });

  it('caps the wait at the configured maximum', async () => {
    const { result, gaps } = await runDelivery({ trigger: 'automatic', attempts: 8, schedule: { initialMs: 1000, maxMs: 3000 } }, () => 'failed');
    expect(result.attempts).toBe(8);
    expectGaps(gaps, [1000, 2000, 3000, 3000, 3000, 3000, 3000]);
  });

  it('stops at once when the endpoint was disabled (abandoned)', async () => {
    const { result, calls } = await runDelivery({ trigger: 'automatic', attempts: 8, schedule: DEFAULT_SCHEDULE }, () => 'abandoned');
    expect(result).toEqual({ outcome: 'abandoned', attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it('a manual redelivery makes exactly one attempt, even when it fails', async () => {
    const { result, calls, deliveryId } = await runDelivery({ trigger: 'manual', attempts: 1, schedule: DEFAULT_SCHEDULE }, () => 'failed');
    expect(result).toEqual({ outcome: 'failed', attempts: 1 });
    expect(calls.map((c) => c.input)).toEqual([{ deliveryId, trigger: 'manual', lastAttempt: true }]);
  });
});
