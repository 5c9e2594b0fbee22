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
export const jsonCalls = (agent: Agent): Call => (port, method, path, headers = {}, body) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = process.hrtime.bigint();
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString() || 'null'), ms });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });

/** The q-quantile of ascending `sorted` (NaN when empty). */
export function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

let ticksPerSecond: number | undefined;

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3 of stat(5), so utime (14) and stime (15) are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
