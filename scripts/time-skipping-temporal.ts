// Temporal's test server with its time-skipping clock, for record-history's scenarios that last weeks or
// months (a recurrence over a year of cycles, a due-date charge polled for a week): the engine runs against it
// as against any Temporal server (TEMPORAL_ADDRESS), and a workflow's timers fire as soon as the scenario moves
// the clock past them. Only Temporal's clock jumps: the API, the activities and PostgreSQL keep real time.
import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ENGINE_SEARCH_ATTRIBUTES } from '../src/temporal/search-attributes.js';
import { existingTemporalExecutable } from '../test/helpers/temporal-executables.js';

/** The server's clock: it stands still between moves, and a move fires every timer it passes, in order. */
export interface TemporalClock {
  nowMs(): Promise<number>;
  /** Moves the clock to `timeMs` (not back), each workflow taking its timers on the way as they come due. */
  advanceTo(timeMs: number): Promise<void>;
}

export interface TimeSkippingTemporal {
  address: string;
  clock: TemporalClock;
  stop(): Promise<void>;
}

/** The test server, knowing the engine's search attributes (the workflows upsert them), as the dev servers do. */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: existingTemporalExecutable('temporal-test-server') },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      ENGINE_SEARCH_ATTRIBUTES.map((key) => [key.name, proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
    ),
  });
  return env;
}

export async function startTimeSkippingTemporal(): Promise<TimeSkippingTemporal> {
  const env = await timeSkippingEnvironment();
  return {
    address: env.address,
    clock: {
      nowMs: () => env.currentTimeMs(),
      advanceTo: async (timeMs) => {
        const now = await env.currentTimeMs();
        if (timeMs > now) await env.sleep(timeMs - now);
      },
    },
    stop: () => env.teardown(),
  };
}
