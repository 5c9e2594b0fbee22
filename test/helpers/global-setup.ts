// Once per `npm test`: one Temporal dev server (in memory, headless: the testing package's local
// environment, on the project's own CLI, with the engine's search attributes and flags), one prebuilt
// workflow bundle and one build of the engine that every stack of the run shares; each stack gets its own
// database and task queue.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/db/database.js';
import { DEV_SERVER_DYNAMIC_CONFIG_ARGS } from '../../src/temporal/dev-server.js';
import { ENGINE_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes.js';
import { bundleWorkflows } from '../../src/temporal/bundle.js';
import { PROJECT_ROOT } from '../../src/runtime/project-root.js';
import { buildEngine } from '../../scripts/build.mjs';
import { ADMIN_DATABASE_URL, testDbPrefix } from './database.js';
import { existingTemporalExecutable } from './temporal-executables.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    testRunId: string;
    engineBuildDir: string;
  }
}

export default async function setup(project: TestProject) {
  // No signal handlers of the SDK's in vitest's own process: Ctrl-C stays vitest's.
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
  const runId = randomBytes(3).toString('hex');
  // The engine runs as `npm start` runs it, from its build (scripts/build.mjs), here one of the run's own.
  const engineBuildDir = join(PROJECT_ROOT, '.build', `test-${runId}`);
  const [server, bundle] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: existingTemporalExecutable('temporal'),
        searchAttributes: ENGINE_SEARCH_ATTRIBUTES,
        extraArgs: DEV_SERVER_DYNAMIC_CONFIG_ARGS,
        log: { format: 'pretty', level: 'error' },
      },
    }),
    bundleWorkflows(),
    buildEngine(engineBuildDir),
  ]);
  const bundlePath = join(mkdtempSync(join(tmpdir(), 'pix-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, bundle);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', bundlePath);
  project.provide('testRunId', runId);
  project.provide('engineBuildDir', engineBuildDir);

  return async () => {
    await server.teardown();
    rmSync(engineBuildDir, { recursive: true, force: true });
    const admin = connect(ADMIN_DATABASE_URL, { max: 1 });
    try {
      const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${testDbPrefix(runId) + '%'}`;
      for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}
