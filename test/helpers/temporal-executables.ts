// The Temporal executables the tests' servers run, as the testing package's `existing-path`: installed
// by `npm install` into .tools/bin, so nothing is downloaded at run time. TEMPORAL_CLI_PATH and
// TEMPORAL_TEST_SERVER_PATH override, PATH comes after .tools/bin.
import { findExecutable } from '../../src/temporal/executables.js';

const EXECUTABLES = {
  temporal: 'TEMPORAL_CLI_PATH',
  'temporal-test-server': 'TEMPORAL_TEST_SERVER_PATH',
} as const;

export function existingTemporalExecutable(name: keyof typeof EXECUTABLES): { type: 'existing-path'; path: string } {
  const variable = EXECUTABLES[name];
  const path = findExecutable(name, process.env[variable], process.env.PATH ?? '');
  if (!path) throw new Error(`${name} not found: run \`npm install\` (it installs it into .tools/bin) or set ${variable}`);
  return { type: 'existing-path', path };
}
