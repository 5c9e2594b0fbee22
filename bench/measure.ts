// What the benches share to call the engine and to read their figures.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type Agent } from 'node:http';

export interface Answer {
  status: number;
  body: any;
  /** From the request sent to the whole answer read. */
  ms: number;
}

/** One load run as the benches report it: successful requests, their rate and latency, the rest. */
export interface Figures {
  label: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export type Call = (port: number, method: string, path: string, headers?: Record<string, string>, body?: unknown) => Promise<Answer>;

/** JSON calls to 127.0.0.1 over `agent`. */
export const jsonCalls =
  (agent: Agent): Call =>
  (port, method, path, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = process.hrtime.bigint();
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), ms });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

/** The q-quantile of ascending `sorted` (NaN when empty). */
export function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** Rows under a header, the first column aligned left and the others right. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${line(header)}\n${rows.map(line).join('\n')}\n`);
}

/** A process's CPU times from /proc/<pid>/stat, in clock ticks (see ticksToMs). */
export interface ProcessTimes {
  ppid: number;
  comm: string;
  /** utime + stime. */
  own: number;
  /** cutime + cstime: the children it reaped. */
  reaped: number;
}

/** A process's times, or with `tid` one thread's (its `reaped` is the process's). */
export function processTimes(pid: number | string, tid?: number | string): ProcessTimes {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const closing = stat.lastIndexOf(')');
  // After the command name: state is field 3 of stat(5), so ppid (4) is at 1, utime (14) at 11, stime 12, cutime 13, cstime 14.
  const fields = stat
    .slice(closing + 2)
    .split(' ')
    .map(Number);
  return {
    ppid: fields[1]!,
    comm: stat.slice(stat.indexOf('(') + 1, closing),
    own: fields[11]! + fields[12]!,
    reaped: fields[13]! + fields[14]!,
  };
}

/** processTimes, or undefined for a process or thread that ended since its directory was listed. */
export function processTimesIfAlive(pid: number | string, tid?: number | string): ProcessTimes | undefined {
  try {
    return processTimes(pid, tid);
  } catch {
    return undefined;
  }
}

let ticksPerSecond: number | undefined;

export const ticksToMs = (ticks: number) =>
  (ticks * 1000) / (ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()));

/** CPU time (user + system) a process has used so far, in ms. */
export const processCpuMs = (pid: number): number => ticksToMs(processTimes(pid).own);
