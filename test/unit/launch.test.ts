// One launch: `npm start`, `dev`, `api`, `worker`, `migrate` and the image (its Dockerfile read, Docker cannot run here)
// start the engine with the command the tests' engines are started with (engineLaunch, test/helpers/stack.ts:
// test/integration/shipped-launch.test.ts checks those processes), so the Node options that only scripts/launch.sh
// holds are the same everywhere.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineLaunch, LAUNCHER } from '../../scripts/launch.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const packageJson = readFileSync(join(ROOT, 'package.json'), 'utf8');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const { scripts } = JSON.parse(packageJson) as { scripts: Record<string, string> };

/** engineLaunch's command as a command line run from the project's folder. */
function shipped(entry: string, role: string): string[] {
  const [command, args] = engineLaunch(entry, role);
  return [command, ...args.map((arg) => (arg === LAUNCHER ? relative(ROOT, LAUNCHER) : arg))];
}

describe('the engine is launched one way', () => {
  it.each([
    ['start', 'dist/src/main.js', 'all'],
    ['dev', 'dist/src/dev.js', 'all'],
    ['api', 'dist/src/main.js', 'api'],
    ['worker', 'dist/src/main.js', 'worker'],
    ['migrate', 'dist/src/main.js', 'migrate'],
  ])('npm run %s builds, then runs %s %s through the launcher', (script, entry, role) => {
    expect(scripts[script]).toBe(`node scripts/build.mjs && ${shipped(entry, role).join(' ')}`);
  });

  it("the image's CMD runs dist/src/main.js all through the launcher", () => {
    const cmd = /^CMD (.+)$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(shipped('dist/src/main.js', 'all'));
  });

  it('package.json and the Dockerfile give the engine no Node option or MALLOC_ARENA_MAX of their own', () => {
    for (const text of [packageJson, dockerfile]) {
      expect(text).not.toMatch(/\bnode"?(?:,? +"?--[^\s"]+"?)+,? +"?dist\//);
      expect(text).not.toContain('MALLOC_ARENA_MAX');
    }
  });
});
