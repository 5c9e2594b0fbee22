// Where the Temporal CLI and setpriv are: the explicit path, then the project's .tools/bin (filled by
// `npm install` from PyPI), then `searchPath` (PATH, given by config.ts). Null means none was found.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from '../runtime/project-root.js';

export const PROJECT_TOOLS_BIN = join(PROJECT_ROOT, '.tools', 'bin');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findExecutable(name: string, override: string | null | undefined, searchPath: string): string | null {
  if (override) return override;
  const candidates = [
    join(PROJECT_TOOLS_BIN, name),
    ...searchPath
      .split(delimiter)
      .filter(Boolean)
      .map((d) => join(d, name)),
  ];
  return candidates.find(executable) ?? null;
}

/** The temporal CLI (TEMPORAL_CLI_PATH when set). */
export const temporalCli = (override: string | null | undefined, searchPath: string) => findExecutable('temporal', override, searchPath);
/** util-linux `setpriv` (Linux): runs a command with a parent-death signal. */
export const setpriv = (searchPath: string) => findExecutable('setpriv', null, searchPath);
