// A stack that reaches Temporal only through a TCP relay the test can cut and restore, with a
// connection to the stack's database and a collector of the engine's spans; started before the
// enclosing describe block's tests, stopped after.
import { afterAll, beforeAll, inject } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { eventually } from './eventually.js';
import { liveStack } from './live-stack.js';
import { poll } from './probe.js';
import { freePort } from '../../src/runtime/free-port.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
import { http, type Stack } from './stack.js';
import { tcpRelay, type TcpRelay } from './tcp-relay.js';

export interface OutageStack {
  readonly stack: Stack;
  readonly sql: Sql;
  readonly temporal: TcpRelay;
  /**
   * The engine's span `name` (`StartWorkflow:<type>`, `UpdateWithStartWorkflow:<update>`) of its call to
   * Temporal for `workflowId`, once the call has ended, retries and all: a span is exported when it ends.
   */
  clientCallEnded(name: string, workflowId: string): Promise<ReceivedSpan>;
  /** Resolves once the engine says it reaches Temporal again (GET /readyz: a 503 naming Temporal until then). */
  engineReachesTemporal(): Promise<void>;
}

export function stackBehindTemporalRelay(env: Record<string, string>): OutageStack {
  let port = 0;
  let temporal: TcpRelay | undefined;
  let collector: OtlpReceiver | undefined;

  // Registered before the stack's hooks: the relay opens before the stack starts and is cut after it stops.
  beforeAll(async () => {
    port = await freePort();
    temporal = tcpRelay(port, inject('temporalAddress'));
    await temporal.open();
    collector = await startOtlpReceiver();
  });
  afterAll(async () => {
    await temporal?.cut().catch(() => {});
    await collector?.close();
  });
  const live = liveStack(() => ({
    env: {
      TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector!.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    },
  }));

  return {
    get stack() {
      return live.stack;
    },
    get sql() {
      return live.sql;
    },
    get temporal() {
      if (!temporal) throw new Error('the relay is not open yet (use it inside tests)');
      return temporal;
    },
    clientCallEnded: (name, workflowId) =>
      eventually(() => collector!.spans.find((span) => span.name === name && span.attributes.temporalWorkflowId === workflowId), 30_000),
    engineReachesTemporal: async () => {
      await poll(
        () => http('GET', `${live.stack.rootUrl}/readyz`),
        () => true,
        { notYet: (res) => res.status === 503 && res.body?.checks?.temporal === 'unavailable', timeoutMs: 60_000, everyMs: 200 },
      );
    },
  };
}
