// Runs the real bin/pixctl.js in a child process against a stack's admin API, as an operator would.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_TOKEN, type Stack } from './stack.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'pixctl.js');

export interface PixctlRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runPixctl(stack: Stack, args: string[], env: Record<string, string> = {}): Promise<PixctlRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: '/', env: { PATH: process.env.PATH!, PIX_ADMIN_URL: stack.adminUrl.replace(/\/admin$/, ''), ADMIN_TOKEN, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}
