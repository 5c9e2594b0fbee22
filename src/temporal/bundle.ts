// The workflow code the worker runs, bundled at start by a child process: webpack's memory (about
// 160 MB of the engine's resident memory when it bundled in the engine) leaves with that process.
// A deployment can bundle ahead of time instead (TEMPORAL_WORKFLOW_BUNDLE).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface BundleRequest {
  workflowsPath: string;
  workflowInterceptorModules: string[];
}

const BUNDLER = fileURLToPath(new URL('./bundle-process.mjs', import.meta.url));

export async function bundleInChildProcess(request: BundleRequest): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [BUNDLER, JSON.stringify(request)], { maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}
