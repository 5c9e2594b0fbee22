// What a check answers, and how it reads: every check of checks.ts and money-checks.ts.
import { setTimeout as sleep } from 'node:timers/promises';

/** How many things a check examined and every violation it found, named precisely enough to look up in the logs. */
export interface CheckResult {
  name: string;
  examined: number;
  violations: string[];
}

/** Retries a read when a fault ended the harness's connection. */
export async function read<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= 5) throw err;
      await sleep(300);
    }
  }
}
