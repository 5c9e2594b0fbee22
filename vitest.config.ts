import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // Test files mostly wait (for workflows, timers, HTTP): one at a time left 2 cores 44 % idle. Vitest's
    // default (cores - 1) would run one at a time there; two or more keep them busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A stray .only fails the run instead of running one test and passing (lint refuses it too).
    allowOnly: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
