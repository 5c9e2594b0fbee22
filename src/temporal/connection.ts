import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import type { TemporalServer } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import { temporalMetricsExporter } from '../metrics/temporal.js';
import { encryptingDataConverter } from './codec/data-converter.js';
import type { PayloadKeys } from '../config/payload-keys.js';
import { activeTracing } from '../tracing/provider.js';
import { tracingClientInterceptors } from '../tracing/temporal.js';
import { DrainingConnection } from './draining-connection.js';

// Both connections to `server` carry its TLS, API key and gRPC metadata (config.ts reads them with envconfig).

/**
 * A client of the engine's namespace: every payload it sends is encrypted, every one it reads decrypted.
 * Its connection's close() is safe with calls in flight (draining-connection.ts).
 */
export async function connectClient(server: TemporalServer, namespace: string, keys: PayloadKeys): Promise<Client> {
  const connection = await DrainingConnection.open(server);
  return new Client({
    connection,
    namespace,
    dataConverter: encryptingDataConverter(keys),
    interceptors: tracingClientInterceptors(activeTracing()),
  });
}

let runtimeInstalled = false;

/** Routes the SDK's own logs into ours and serves its metrics for GET /metrics (once per process). */
async function installRuntime(logger: Logger) {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const metrics = await temporalMetricsExporter();
  const log = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: {
      log: (level, message, meta) => log[level === 'INFO' ? 'debug' : (level.toLowerCase() as 'warn')]({ meta }, message),
      trace: (message, meta) => log.trace({ meta }, message),
      debug: (message, meta) => log.debug({ meta }, message),
      // The SDK's info lines (bundler output, state changes) are detail for an operator: debug.
      info: (message, meta) => log.debug({ meta }, message),
      warn: (message, meta) => log.warn({ meta }, message),
      error: (message, meta) => log.error({ meta }, message),
    },
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'WARN' }) }, metrics },
    // Our own shutdown stops the HTTP servers (finishing in-flight requests) before the worker; the SDK's
    // default handlers would stop the worker at the first signal, under requests still waiting on it.
    shutdownSignals: [],
  });
}

export async function connectWorker(server: TemporalServer, logger: Logger): Promise<NativeConnection> {
  await installRuntime(logger);
  return NativeConnection.connect(server);
}
