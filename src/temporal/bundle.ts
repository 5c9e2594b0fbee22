// The engine's workflow code (workflows/ with their interceptors: the refusal of unencrypted input, then
// tracing), bundled by a child process: webpack's memory (about 160 MB of the engine's resident memory when it bundled in the engine) leaves
// with that process. The worker bundles with it at start unless TEMPORAL_WORKFLOW_BUNDLE names a bundle
// built ahead of time; the tests, chaos runs and benches that build one build it here, so it is the
// engine's.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../tracing/temporal.js';
import { PROJECT_ROOT } from '../runtime/project-root.js';

// The sources, also when the engine runs from its build: the bundler compiles TypeScript itself.
const WORKFLOWS_DIR = join(PROJECT_ROOT, 'workflows');
const WORKFLOWS_PATH = join(WORKFLOWS_DIR, 'index.ts');
/** First: a start, signal or update it refuses reaches neither the tracing interceptors nor the workflow. */
const INTERCEPTOR_MODULES = [join(WORKFLOWS_DIR, 'payload-encryption.interceptors.ts'), ...WORKFLOW_INTERCEPTOR_MODULES];
const BUNDLER = fileURLToPath(new URL('./bundle-process.mjs', import.meta.url));

export async function bundleWorkflows(): Promise<string> {
  const request = { workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: INTERCEPTOR_MODULES };
  const { stdout } = await promisify(execFile)(process.execPath, [BUNDLER, JSON.stringify(request)], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}
