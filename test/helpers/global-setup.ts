// Once per `npm test`: one Temporal dev server (in memory, headless) and one prebuilt workflow bundle
// that every stack of the run shares; each stack gets its own database and task queue.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/db/database.js';
import { startDevServer } from '../../src/temporal/dev-server.js';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';
import { freePort } from './ports.js';
import { ADMIN_DATABASE_URL, testDbPrefix } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    testRunId: string;
  }
}

export default async function setup(project: TestProject) {
  const [server, bundle] = await Promise.all([
    startDevServer({ port: await freePort(), uiPort: null, dbFile: null, namespace: 'default' }),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } }),
  ]);
  const bundlePath = join(mkdtempSync(join(tmpdir(), 'pix-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, bundle.code);
  project.provide('temporalAddress', server.address);
  project.provide('workflowBundlePath', bundlePath);
  const runId = randomBytes(3).toString('hex');
  project.provide('testRunId', runId);

  return async () => {
    await server.stop();
    const admin = connect(ADMIN_DATABASE_URL, { max: 1 });
    try {
      const rows = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${testDbPrefix(runId) + '%'}`;
      for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    } finally {
      await admin.end();
    }
  };
}
