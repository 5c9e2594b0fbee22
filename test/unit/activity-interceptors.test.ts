// The interceptors the worker runs every activity through (activities/heartbeats.ts,
// activities/final-failures.ts, src/worker.ts), each on the SDK's MockActivityEnvironment: a
// real activity Context, the activity function as the interceptor's `next`.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Resource } from '@opentelemetry/resources';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger, type ActivityInterceptorsFactory } from '@temporalio/worker';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finalFailures } from '../../activities/final-failures.js';
import { heartbeats } from '../../activities/heartbeats.js';
import { workerActivityInterceptors } from '../../src/worker.js';
import { tracingWorkerOptions } from '../../src/tracing/temporal.js';
import { PERMANENT_DATA_ERROR } from '../../contracts/transaction.contract.js';

const QUIET = new DefaultLogger('ERROR');

function environment(info: { heartbeatTimeoutMs?: number; isLocal?: boolean }, interceptors: ActivityInterceptorsFactory[]) {
  const env = new MockActivityEnvironment(info, { interceptors, logger: QUIET });
  const beats: unknown[] = [];
  env.on('heartbeat', (details) => beats.push(details));
  return { env, beats };
}

/** An activity that runs until `finish` is called. */
function pendingActivity() {
  let finish!: () => void;
  const done = new Promise<string>((resolve) => (finish = () => resolve('done')));
  return { activity: () => done, finish };
}

/** What PostgreSQL (postgres.js) throws for a duplicate key: the values are in `detail`. */
function uniqueViolation(): Error {
  return Object.assign(new Error('duplicate key value violates unique constraint "transactions_account_id_external_id_key"'), {
    code: '23505',
    table_name: 'transactions',
    constraint_name: 'transactions_account_id_external_id_key',
    detail: 'Key (account_id, external_id)=(acc_secret, chave-secreta) already exists.',
  });
}

describe('heartbeats', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a regular activity with a heartbeat timeout heartbeats every third of it while it runs, and not after', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { env, beats } = environment({ heartbeatTimeoutMs: 2000 }, [heartbeats]);
    const { activity, finish } = pendingActivity();
    const run = env.run(activity);
    await vi.advanceTimersByTimeAsync(665);
    expect(beats).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(beats).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2 * 666);
    expect(beats).toHaveLength(3);
    finish();
    expect(await run).toBe('done');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(beats).toHaveLength(3);
  });

  it('a local activity, or one without a heartbeat timeout, sends none', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    for (const info of [{ heartbeatTimeoutMs: 2000, isLocal: true }, {}]) {
      const { env, beats } = environment(info, [heartbeats]);
      const { activity, finish } = pendingActivity();
      const run = env.run(activity);
      await vi.advanceTimersByTimeAsync(10_000);
      finish();
      expect(await run).toBe('done');
      expect(beats).toEqual([]);
    }
  });
});

describe('final failures', () => {
  it('a PostgreSQL constraint error (23505) becomes a non-retryable PermanentDataError with the SQLSTATE and names, without the values', async () => {
    const { env } = environment({}, [finalFailures]);
    const failure = await env.run(async () => Promise.reject(uniqueViolation())).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({
      type: PERMANENT_DATA_ERROR,
      nonRetryable: true,
      message: 'PostgreSQL 23505 table_name=transactions constraint_name=transactions_account_id_external_id_key',
    });
    expect(JSON.stringify({ ...(failure as object), message: (failure as Error).message })).not.toMatch(/acc_secret|chave-secreta/);
  });

  it('any other error reaches Temporal as it was thrown (retryable)', async () => {
    const { env } = environment({}, [finalFailures]);
    for (const thrown of [new Error('connection reset'), Object.assign(new Error('serialization failure'), { code: '40001' })]) {
      expect(await env.run(async () => Promise.reject(thrown)).catch((err: unknown) => err)).toBe(thrown);
    }
  });

  it("runs inside tracing's interceptor on the worker: the activity's span records the classified failure, not the values", async () => {
    const exporter = new InMemorySpanExporter();
    const spanProcessor = new SimpleSpanProcessor(exporter);
    const provider = new BasicTracerProvider({ spanProcessors: [spanProcessor] });
    const tracing = { tracer: provider.getTracer('test'), resource: new Resource({}), spanProcessor, shutdown: () => provider.shutdown() };
    const { env } = environment(
      { activityType: 'settleChargePaid' } as object,
      workerActivityInterceptors(tracingWorkerOptions(tracing).interceptors),
    );
    await expect(env.run(async () => Promise.reject(uniqueViolation()))).rejects.toMatchObject({ type: PERMANENT_DATA_ERROR });
    const [span] = exporter.getFinishedSpans();
    const classified = 'PostgreSQL 23505 table_name=transactions constraint_name=transactions_account_id_external_id_key';
    expect(span).toMatchObject({ name: 'RunActivity:settleChargePaid', status: { message: classified } });
    expect(span!.events).toMatchObject([{ name: 'exception', attributes: { 'exception.message': classified } }]);
    expect(JSON.stringify({ status: span!.status, events: span!.events })).not.toMatch(/acc_secret|chave-secreta|duplicate key/);
    await tracing.shutdown();
  });
});
