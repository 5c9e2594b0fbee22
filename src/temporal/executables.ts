// Where the Temporal executables are: the explicit variable, then the project's .tools/bin (filled by
// `npm install` from PyPI), then PATH. Null means none was found; the SDK may then download its own.
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_TOOLS_BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '.tools', 'bin');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findExecutable(name: string, override: string | null | undefined): string | null {
  if (override) return override;
  const candidates = [join(PROJECT_TOOLS_BIN, name), ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name))];
  return candidates.find(executable) ?? null;
}

export const temporalCli = (override?: string | null) => findExecutable('temporal', override ?? process.env.TEMPORAL_CLI_PATH);
export const temporalTestServer = (override?: string | null) =>
  findExecutable('temporal-test-server', override ?? process.env.TEMPORAL_TEST_SERVER_PATH);
/** util-linux `setpriv` (Linux): runs a command with a parent-death signal. */
export const setpriv = () => findExecutable('setpriv', null);
