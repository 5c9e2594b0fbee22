// The Temporal worker's own metrics (the SDK's runtime telemetry, prefix `temporal_`): the SDK serves
// them in the Prometheus format on a loopback port of its own, which GET /metrics reads and appends,
// so one scrape has both. Only a process that runs a worker installs it.
import { createServer } from 'node:net';
import type { MetricsExporterConfig } from '@temporalio/worker';

let scrapeUrl: string | null = null;

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The `telemetryOptions.metrics` of Runtime.install (which must run before any worker or connection). */
export async function temporalMetricsExporter(): Promise<MetricsExporterConfig> {
  const port = await freeLoopbackPort();
  scrapeUrl = `http://127.0.0.1:${port}/metrics`;
  return {
    metricPrefix: 'temporal_',
    prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, useSecondsForDurations: true },
  };
}

/** The SDK's metrics text, or '' when this process runs no worker or the SDK does not answer in time. */
export async function temporalMetricsText(): Promise<string> {
  if (scrapeUrl === null) return '';
  try {
    const res = await fetch(scrapeUrl, { signal: AbortSignal.timeout(2000) });
    return res.ok ? await res.text() : '';
  } catch {
    return '';
  }
}
