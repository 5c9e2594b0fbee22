#!/usr/bin/env node
// Installs the pinned Schemathesis (the API fuzzer of `npm run fuzz`) from PyPI into its own Python
// virtual environment under the git-ignored .tools/, beside the Temporal executables. Idempotent.
// A development tool: skipped when dev dependencies are omitted, and a failure only warns, because
// nothing but `npm run fuzz` needs it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCHEMATHESIS_VERSION = '4.32.5';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const VENV = join(root, '.tools', 'schemathesis');
export const ST = join(VENV, 'bin', 'st');
const pin = join(VENV, 'installed-version');

function installed() {
  return existsSync(ST) && existsSync(pin) && readFileSync(pin, 'utf8').trim() === SCHEMATHESIS_VERSION;
}

function install() {
  for (const py of ['python3', 'python']) {
    try {
      execFileSync(py, ['-m', 'venv', VENV], { stdio: 'inherit' });
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    const pip = join(VENV, 'bin', 'python');
    execFileSync(pip, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], {
      stdio: 'inherit',
    });
    writeFileSync(pin, `${SCHEMATHESIS_VERSION}\n`);
    console.log(`Schemathesis ${SCHEMATHESIS_VERSION} installed in ${VENV}`);
    return;
  }
  throw new Error('no python3 with the venv module found');
}

const devOmitted = (process.env.npm_config_omit ?? '').includes('dev') || process.env.NODE_ENV === 'production';
if (!installed() && !devOmitted && process.env.PIX_SKIP_FUZZ_INSTALL !== '1' && import.meta.url === `file://${process.argv[1]}`) {
  try {
    install();
  } catch (err) {
    console.warn(`Schemathesis ${SCHEMATHESIS_VERSION} was not installed (only npm run fuzz needs it): ${err.message}`);
  }
}
