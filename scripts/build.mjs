#!/usr/bin/env node
// Builds the engine to run: the TypeScript of src/, contracts/, workflows/ and activities/ compiled file by
// file to JavaScript by esbuild (types are tsc's: npm run typecheck), beside copies of the other files those
// folders hold (migrations, the bundler's script), in dist/ or the folder given. `npm start` and the tests
// run the engine from there: loading the sources through tsx at every start took twice the CPU and time
// (docs/operating.md). What is not built (the workflows' sources, which the worker bundles; .tools) is found
// from the project's folder (src/runtime/project-root.ts).
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['src', 'contracts', 'workflows', 'activities'];

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * Builds into `outDir` and returns it. The build is written beside it first and then takes its place, so
 * that nothing of an earlier build stays and an engine already running from it (`npm run api` beside
 * `npm run worker`) finds every file until the swap.
 */
export async function buildEngine(outDir = join(root, 'dist')) {
  const out = resolve(root, outDir);
  const next = `${out}.next-${process.pid}`;
  const old = `${out}.old-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const files = FOLDERS.flatMap((folder) => filesUnder(join(root, folder)));
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    const copy = join(next, relative(root, file));
    mkdirSync(dirname(copy), { recursive: true });
    copyFileSync(file, copy);
  }
  await build({
    entryPoints: sources,
    outdir: next,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // The one require(): in the workflows' tracing interceptors, which run only in the worker's bundle, built from the sources.
    logOverride: { 'unsupported-require-call': 'silent' },
    logLevel: 'warning',
  });
  if (existsSync(out)) renameSync(out, old);
  renameSync(next, out);
  rmSync(old, { recursive: true, force: true });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildEngine(process.argv[2]);
