// A process's memory as Linux reports it (/proc), for the benches that measure the engine's RSS.
import { readFileSync } from 'node:fs';

/** VmRSS and VmHWM (the peak RSS) of a process, in kB. */
export function memoryKb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** The child processes of a process's main thread (the engine's embedded Temporal dev server). */
export function childPids(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
}

export const mb = (kb: number) => (kb / 1024).toFixed(0);
