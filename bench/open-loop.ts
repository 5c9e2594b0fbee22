// Open-loop load: operations sent at a fixed arrival rate, each at its scheduled time whether or not
// earlier ones have answered, with latency counted from the scheduled time. A closed loop (autocannon,
// N concurrent callers) waits for an answer before its next request, so a slow answer delays the
// requests behind it and they never measure the wait (coordinated omission); here the wait counts,
// and so does any lag of this process in sending.
import { setTimeout as sleep } from 'node:timers/promises';
import { printTable, quantile } from './measure.js';

/** Operations not answered this long after the last send count as errors. */
const DRAIN_LIMIT_MS = 30_000;

export interface OpenLoopFigures {
  label: string;
  askedPerSecond: number;
  /** Successful operations per second, over the run or until the last answer if that came later. */
  achievedPerSecond: number;
  /** Successful operations, the count CPU per operation is taken over. */
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** The latest a send left after its scheduled time: this process's own lag, inside every latency. */
  maxSendLag: number;
}

/** `send(i)` resolves true for a success; it is called `ratePerS × seconds` times at evenly spaced times. */
export async function openLoop(
  label: string,
  ratePerS: number,
  seconds: number,
  send: (i: number) => Promise<boolean>,
): Promise<OpenLoopFigures> {
  const total = Math.floor(ratePerS * seconds);
  const intervalMs = 1000 / ratePerS;
  const latencies: number[] = [];
  let errors = 0;
  let maxSendLag = 0;
  let lastAnswer = 0;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const fire = (i: number, scheduled: number) => {
    maxSendLag = Math.max(maxSendLag, performance.now() - scheduled);
    const done = send(i)
      .catch(() => false)
      .then((ok) => {
        lastAnswer = performance.now();
        if (ok) latencies.push(lastAnswer - scheduled);
        else errors += 1;
        inFlight.delete(done);
      });
    inFlight.add(done);
  };
  for (let next = 0; next < total;) {
    const now = performance.now();
    for (; next < total && start + next * intervalMs <= now; next++) fire(next, start + next * intervalMs);
    if (next < total) await sleep(start + next * intervalMs - performance.now());
  }
  const drainTimer = new AbortController();
  const drained = await Promise.race([Promise.all(inFlight).then(() => true), sleep(DRAIN_LIMIT_MS, false, { signal: drainTimer.signal })]);
  drainTimer.abort();
  if (!drained) errors += inFlight.size;
  latencies.sort((a, b) => a - b);
  return {
    label,
    askedPerSecond: ratePerS,
    achievedPerSecond: latencies.length / (Math.max(seconds * 1000, lastAnswer - start) / 1000),
    requests: latencies.length,
    errors,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    maxSendLag,
  };
}

export function printOpenLoopTable(rows: OpenLoopFigures[]): void {
  printTable(
    ['open loop', 'asked/s', 'achieved/s', 'ok', 'p50 ms', 'p99 ms', 'max ms', 'errors', 'send lag max ms'],
    rows.map((r) => [
      r.label,
      r.askedPerSecond.toFixed(1),
      r.achievedPerSecond.toFixed(1),
      String(r.requests),
      r.p50.toFixed(1),
      r.p99.toFixed(1),
      r.max.toFixed(1),
      String(r.errors),
      r.maxSendLag.toFixed(1),
    ]),
  );
}
