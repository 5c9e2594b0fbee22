// The project's folder (the one holding package.json), whether the engine runs from its TypeScript
// sources or from their build in dist/ (scripts/build.mjs): what lives beside the sources and is not
// built (the workflows' sources, which the worker bundles; the tools npm install put in .tools) is found
// from here.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function folderHoldingPackageJson(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const PROJECT_ROOT = folderHoldingPackageJson(dirname(fileURLToPath(import.meta.url)));
