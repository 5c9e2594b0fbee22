// One workflow file on the time-skipping test server, for the tests of test/workflows: the server
// and the file's bundle are made before the test file's tests and torn down after them.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll } from 'vitest';
import { existingTemporalExecutable } from './temporal-executables.js';
import { temporal } from '@temporalio/proto';
import { ENGINE_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The bundler's logger: errors only. */
const QUIET_BUNDLER_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

export interface TimeSkippingServer {
  /** Set once the test file's `beforeAll` hooks ran. */
  readonly env: TestWorkflowEnvironment;
  /** A worker for the bundled workflows on a fresh task queue `<prefix>-<random>`, not yet running. */
  worker(prefix: string, activities: object): Promise<{ worker: Worker; taskQueue: string }>;
}

/** Registers the hooks that start the server with the workflow file at `path` (from the project's folder) bundled, and stop it. */
export function timeSkippingServer(path: string): TimeSkippingServer {
  let env: TestWorkflowEnvironment | undefined;
  let bundle: WorkflowBundleWithSourceMap | undefined;

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    [env, bundle] = await Promise.all([
      TestWorkflowEnvironment.createTimeSkipping({ server: { executable: existingTemporalExecutable('temporal-test-server') } }),
      bundleWorkflowCode({ workflowsPath: join(ROOT, path), logger: QUIET_BUNDLER_LOGGER }),
    ]);
    // The workflows upsert the engine's search attributes (TransactionStatus): the server must know them.
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(
        ENGINE_SEARCH_ATTRIBUTES.map((key) => [key.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
      ),
    });
  });

  afterAll(async () => {
    await env?.teardown();
  });

  return {
    get env() {
      if (!env) throw new Error('the time-skipping server is not started yet (use it inside tests)');
      return env;
    },
    async worker(prefix, activities) {
      const taskQueue = `${prefix}-${randomBytes(4).toString('hex')}`;
      const worker = await Worker.create({ connection: this.env.nativeConnection, taskQueue, workflowBundle: bundle!, activities });
      return { worker, taskQueue };
    },
  };
}

export interface TimedCall {
  name: string;
  atMs: number;
}

/** A base for fake activities: records each call by name with the time-skipping server's clock. */
export class TimedCalls {
  readonly calls: TimedCall[] = [];

  constructor(private readonly server: TimeSkippingServer) {}

  protected async record(name: string): Promise<void> {
    this.calls.push({ name, atMs: await this.server.env.currentTimeMs() });
  }

  called(name: string): TimedCall[] {
    return this.calls.filter((call) => call.name === name);
  }
}
