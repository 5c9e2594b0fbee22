// Turning tracing on must not break the runs in flight: every committed history (all started untraced)
// replays through the run's bundle (built with the workflow interceptors, global-setup.ts) with the
// worker options of tracing on, as a worker restarted with OTEL_EXPORTER_OTLP_ENDPOINT set would replay
// them. (Off, replay.test.ts replays them through the same bundle.) Traced runs replaying with tracing
// off: test/integration/tracing.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trace } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { encryptingDataConverter } from '../../src/temporal/codec/data-converter.js';
import { tracingWorkerOptions } from '../../src/tracing/temporal.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';

const HISTORIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'histories');
const files = readdirSync(HISTORIES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('workflow replay with tracing on', () => {
  beforeAll(() => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  });

  it('replays every recorded history with the worker options of tracing on', async () => {
    const tracing = {
      tracer: trace.getTracer('replay'),
      resource: new Resource({ 'service.name': 'replay' }),
      spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
      shutdown: async () => {},
    };
    const histories = files.map((file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(HISTORIES_DIR, file), 'utf8'))),
    }));
    const outcomes: Array<{ workflowId: string; error: string | null }> = [];
    for await (const result of Worker.runReplayHistories(
      {
        workflowBundle: { codePath: inject('workflowBundlePath') },
        dataConverter: encryptingDataConverter(testPayloadKeys()),
        ...tracingWorkerOptions(tracing),
      },
      histories,
    )) {
      outcomes.push({ workflowId: result.workflowId, error: result.error ? `${result.error.name}: ${result.error.message}` : null });
    }
    expect(outcomes).toEqual(files.map((file) => ({ workflowId: file.replace(/\.json$/, ''), error: null })));
  });
});
