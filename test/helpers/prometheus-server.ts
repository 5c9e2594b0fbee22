// A real Prometheus (Debian's /usr/bin/prometheus, installed by .ci/run) for a test: docker/prometheus.yml
// and docker/alerts.yml, as docker-compose.yml mounts them, in a temporary copy whose one change is the
// scrape target (the test engine's admin port) and a 1 s scrape and evaluation interval; its own data
// directory and a free port, so a system Prometheus on :9090 does not matter.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { eventually } from './eventually.js';
import { freePort } from '../../src/runtime/free-port.js';

export interface PrometheusServer {
  url: string;
  /** GET /api/v1/<path>: the `data` of a success, or throws with Prometheus's error. */
  api<T = any>(path: string, params?: Record<string, string>): Promise<T>;
  stop(): Promise<void>;
}

export async function startPrometheus(target: string): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'pix-prometheus-'));
  const config = parse(readFileSync('docker/prometheus.yml', 'utf8'));
  config.global = { ...config.global, scrape_interval: '1s', evaluation_interval: '1s' };
  config.rule_files = [join(dir, 'alerts.yml')];
  const [job] = config.scrape_configs;
  job.static_configs = [{ targets: [target] }];
  writeFileSync(join(dir, 'prometheus.yml'), stringify(config));
  writeFileSync(join(dir, 'alerts.yml'), readFileSync('docker/alerts.yml'));

  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited ${child.exitCode}: ${log}`);
      return (await fetch(`${url}/-/ready`).catch(() => null))?.ok;
    }, 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    async api(path, params = {}) {
      const res = await fetch(`${url}/api/v1/${path}?${new URLSearchParams(params)}`);
      const body = (await res.json()) as { status: string; data: any; errorType?: string; error?: string };
      if (body.status !== 'success') throw new Error(`${path} ${JSON.stringify(params)}: ${body.errorType}: ${body.error}`);
      return body.data;
    },
    stop,
  };
}
