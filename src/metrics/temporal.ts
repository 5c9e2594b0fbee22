// The Temporal worker's own metrics (the SDK's runtime telemetry, prefix `temporal_`): the SDK serves
// them in the Prometheus format on a loopback port of its own, which GET /metrics reads and appends,
// so one scrape has both. Only a process that runs a worker installs it.
import type { MetricsExporterConfig } from '@temporalio/worker';
import { freePort } from '../runtime/free-port.js';

let scrapeUrl: string | null = null;

/** The `telemetryOptions.metrics` of Runtime.install (which must run before any worker or connection). */
export async function temporalMetricsExporter(): Promise<MetricsExporterConfig> {
  // Below the ephemeral range: an outgoing connection cannot take it before the SDK binds it (which would fail the start).
  const port = await freePort();
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
