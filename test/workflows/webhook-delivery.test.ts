// The delivery workflow's retry schedule on the time-skipping test server: the activity is replaced by
// a receiver that fails a given number of times, and the attempts are timed on the server's clock.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { AttemptInput } from '../../src/webhooks/attempt.js';
import {
  FIRST_ATTEMPT_WAIT_MS,
  firstAttemptSignal,
  MAX_AUTOMATIC_ATTEMPTS,
  type RetrySchedule,
} from '../../contracts/webhook-delivery.contract.js';
import type { AttemptOutcome, WebhookDeliveryInput, WebhookDeliveryResult } from '../../contracts/webhook-delivery.contract.js';
import { timeSkippingServer } from '../helpers/time-skipping.js';

const server = timeSkippingServer('workflows/webhook-delivery.ts');
const DEFAULTS = loadConfig({});
const DEFAULT_SCHEDULE: RetrySchedule = { initialMs: DEFAULTS.webhookRetryInitialMs, maxMs: DEFAULTS.webhookRetryMaxMs };

interface Call {
  input: AttemptInput;
  atMs: number;
}

/**
 * Runs one delivery workflow against a fake attempt activity that answers `outcomes` in turn; `firstOutcome`
 * is signalled as the outcome of an attempt 1 made outside the run, `startedAtMs` is when the run started.
 */
async function runDelivery(
  input: Omit<WebhookDeliveryInput, 'deliveryId'>,
  outcomes: (n: number) => AttemptOutcome,
  firstOutcome?: AttemptOutcome,
) {
  const calls: Call[] = [];
  const { worker, taskQueue } = await server.worker('webhooks', {
    async attemptWebhookDelivery(attempt: AttemptInput): Promise<AttemptOutcome> {
      calls.push({ input: attempt, atMs: await server.env.currentTimeMs() });
      return outcomes(calls.length);
    },
  });
  const deliveryId = `whd_${randomBytes(8).toString('hex')}`;
  const startedAtMs = await server.env.currentTimeMs();
  const result: WebhookDeliveryResult = await worker.runUntil(async () => {
    const handle = await server.env.client.workflow.start('webhookDeliveryWorkflow', {
      taskQueue,
      workflowId: `webhook-delivery:${deliveryId}`,
      args: [{ deliveryId, ...input }],
    });
    if (firstOutcome) await handle.signal(firstAttemptSignal, firstOutcome);
    return handle.result();
  });
  const gaps = calls.slice(1).map((call, i) => call.atMs - calls[i]!.atMs);
  return { result, calls, gaps, deliveryId, startedAtMs };
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
    expect(calls.map((c) => c.input)).toEqual([1, 2, 3, 4].map(() => ({ deliveryId, trigger: 'automatic', lastAttempt: false })));
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
    const { result, gaps } = await runDelivery(
      { trigger: 'automatic', attempts: 8, schedule: { initialMs: 1000, maxMs: 3000 } },
      () => 'failed',
    );
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

describe('webhook delivery workflow: attempt 1 made by the dispatcher (firstAttemptOutside)', () => {
  const input = { trigger: 'automatic' as const, attempts: MAX_AUTOMATIC_ATTEMPTS, schedule: DEFAULT_SCHEDULE, firstAttemptOutside: true };

  it('told delivered: ends at once without an attempt of its own', async () => {
    const { result, calls } = await runDelivery(input, () => 'failed', 'delivered');
    expect(result).toEqual({ outcome: 'delivered', attempts: 1 });
    expect(calls).toHaveLength(0);
  });

  it('told failed: attempt 2 after the first wait of the schedule, then the rest of it, 8 attempts in all', async () => {
    const { result, calls, gaps, startedAtMs } = await runDelivery(input, () => 'failed', 'failed');
    expect(result).toEqual({ outcome: 'failed', attempts: 8 });
    expect(calls.map((c) => c.input.lastAttempt)).toEqual([false, false, false, false, false, false, true]);
    expectGaps([calls[0]!.atMs - startedAtMs, ...gaps], [5000, 10_000, 20_000, 40_000, 80_000, 160_000, 320_000]);
  });

  it('told nothing (the dispatching process died): makes attempt 1 itself after FIRST_ATTEMPT_WAIT_MS', async () => {
    const { result, calls, startedAtMs } = await runDelivery(input, () => 'delivered');
    expect(result).toEqual({ outcome: 'delivered', attempts: 1 });
    expectGaps([calls[0]!.atMs - startedAtMs], [FIRST_ATTEMPT_WAIT_MS]);
  });
});
