// Process entry point. Roles: `all` (npm start: API, admin API, worker and, without TEMPORAL_ADDRESS,
// an embedded Temporal dev server), `api`, `worker`, `migrate`.
import { once } from 'node:events';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import type { Worker } from '@temporalio/worker';
import { createAdminApp } from './admin/app.js';
import { codecUiEndpoint, newCodecUiSecret } from './admin/routes/codec.js';
import { createApiApp } from './api/app.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { connectFromConfig, ensureDatabase } from './db/database.js';
import { migrate, MigrationChangedError } from './db/migrate.js';
import type { Deps } from './runtime/deps.js';
import { createHttpServer } from './http/server.js';
import { createLogger, type Logger } from './runtime/log.js';
import { createMetricsServer } from './admin/metrics.js';
import { registerPspWebhooks } from './pix-routes/bcb-api-pix/webhook-registration.js';
import { pspClients } from './pix-routes/registry.js';
import { startHintProcessor } from './psp-webhooks/hint-processor.js';
import { createPspWebhookServer } from './psp-webhooks/server.js';
import { resolvePayloadKeys } from './temporal/codec/key-file.js';
import { connectClient, connectWorker } from './temporal/connection.js';
import { startDevServer, type DevServer } from './temporal/dev-server.js';
import { createWorker } from './worker.js';
import { ensureReconcileSchedules } from './reconciliation/schedules.js';
import { startTracing } from './tracing/provider.js';
import { configureCheckoutOrigin } from './domain/checkout-url.js';
import { endStatusStreams } from './api/checkout/live.js';

type Role = 'all' | 'api' | 'worker' | 'migrate';
const ROLES: Role[] = ['all', 'api', 'worker', 'migrate'];

async function listen(server: Server, port: number, host: string): Promise<number> {
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((done) => {
    server.close(() => done());
    server.closeIdleConnections();
  });
}

async function run(role: Role, config: Config, log: Logger): Promise<() => Promise<void>> {
  const cleanups: Array<() => Promise<void>> = [];
  const shutdown = async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (err) {
        log.error({ err }, 'shutdown step failed');
      }
    }
  };
  try {
    const tracing = startTracing(config.tracing);
    if (tracing) cleanups.push(() => tracing.shutdown());
    await ensureDatabase(config.databaseUrl);
    const sql = connectFromConfig(config);
    cleanups.push(() => sql.end({ timeout: 5 }));
    const applied = await migrate(sql);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
    if (role === 'migrate') return shutdown;
    const payloadKeys = resolvePayloadKeys(config, role);

    let temporalServer = config.temporalServer;
    let devServer: DevServer | null = null;
    const codecUiSecret = config.codecUiSecret ?? (temporalServer ? null : newCodecUiSecret());
    if (!temporalServer) {
      if (role !== 'all') throw new ConfigError('TEMPORAL_ADDRESS is required for the api and worker roles');
      devServer = await startDevServer({
        port: config.temporalDevPort,
        uiPort: config.temporalUiPort,
        uiCodecEndpoint: codecUiEndpoint(config.adminHost, config.adminPort, codecUiSecret!),
        dbFile: resolve(join(config.dataDir, 'temporal.sqlite')),
        namespace: config.temporalNamespace,
        cliPath: config.temporalCliPath,
        searchPath: config.searchPath,
        log,
      });
      cleanups.push(() => devServer!.stop());
      temporalServer = { address: devServer.address };
    }
    const temporal = await connectClient(temporalServer, config.temporalNamespace, payloadKeys.keys);
    cleanups.push(() => temporal.connection.close());
    const deps: Deps = { config, log, sql, temporal };

    if (role === 'all' || role === 'worker') {
      const connection = await connectWorker(temporalServer, log);
      cleanups.push(() => connection.close());
      const worker: Worker = await createWorker(deps, connection, payloadKeys.keys);
      const running = worker.run();
      running.catch((err) => log.fatal({ err }, 'worker stopped'));
      cleanups.push(async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running.catch(() => {});
      });
      log.info({ taskQueue: config.temporalTaskQueue }, 'worker running');
      // In the background: a Temporal that refuses them must not hold the worker's start.
      void ensureReconcileSchedules(deps).then(
        (schedules) => schedules.length > 0 && log.info({ schedules, at: config.reconcileAt }, 'reconciliation schedules ready'),
        (err) => log.warn({ err }, 'reconciliation schedules not created or updated; the next worker start tries again'),
      );
      // The api and all roles serve GET /metrics on the admin port; a worker alone has none.
      if (role === 'worker' && config.metricsPort !== null) {
        const metrics = createMetricsServer(deps);
        const metricsPort = await listen(metrics, config.metricsPort, config.adminHost);
        cleanups.push(() => closeServer(metrics));
        log.info({ metrics: `http://${config.adminHost}:${metricsPort}/metrics` }, 'metrics served');
      }
    }
    if (role === 'all' || role === 'api') {
      const api = createHttpServer(createApiApp(deps), log, config.listener);
      const apiPort = await listen(api, config.port, config.host);
      cleanups.push(() => {
        endStatusStreams(deps);
        return closeServer(api);
      });
      const admin = createHttpServer(createAdminApp(deps, { keys: payloadKeys.keys, uiSecret: codecUiSecret }), log, config.listener);
      const adminPort = await listen(admin, config.adminPort, config.adminHost);
      cleanups.push(() => closeServer(admin));
      // In the background: a PSP that is down must not hold the start (webhook-registration.ts).
      const stopRegistrations = registerPspWebhooks(pspClients(config, log), log);
      cleanups.push(async () => stopRegistrations());
      // PSP webhooks can only come for configured PSP routes: without any, no listener (and no port taken).
      let pspWebhookPort: number | null = null;
      if (config.pixRoutes.length > 0) {
        // Where the listener runs: it acts on this listener's hints at once, and sweeps up those of others (one that died).
        const hints = startHintProcessor(deps);
        cleanups.push(() => hints.stop());
        const pspWebhooks = createPspWebhookServer(deps, hints.wake);
        pspWebhookPort = await listen(pspWebhooks, config.pspWebhookPort, config.pspWebhookHost);
        cleanups.push(() => closeServer(pspWebhooks));
      }
      log.info(
        {
          api: `http://localhost:${apiPort}/v1`,
          admin: `http://${config.adminHost}:${adminPort}/admin`,
          temporalUi: devServer?.uiUrl ?? null,
          payloadKeyFile: payloadKeys.file,
          payloadKeyFileCreated: payloadKeys.created,
          apiPort,
          adminPort,
          pspWebhookPort,
        },
        'pix engine ready',
      );
      if (process.stdout.isTTY) {
        process.stdout.write(
          `\n  Pix engine ready\n  API            http://localhost:${apiPort}/v1\n  Admin API      http://${config.adminHost}:${adminPort}/admin${config.adminToken ? '' : '  (ADMIN_TOKEN unset: refuses all)'}\n` +
            (devServer?.uiUrl ? `  Temporal Web UI ${devServer.uiUrl}\n` : '') +
            (payloadKeys.file
              ? `  Payload keys   ${payloadKeys.file}${payloadKeys.created ? '  (created now: back it up, histories do not decrypt without it)' : ''}\n`
              : '') +
            '\n',
        );
      }
    }
    return shutdown;
  } catch (err) {
    await shutdown();
    throw err;
  }
}

async function main() {
  const role = (process.argv[2] ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    process.stderr.write(`usage: main.ts [${ROLES.join('|')}]\n`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`configuration error: ${(err as Error).message}\n`);
    process.exit(2);
  }
  configureCheckoutOrigin(config);
  const log = createLogger(config.logLevel);
  for (const warning of config.warnings) log.warn(warning);
  // A promise nobody awaited must still leave a structured line for the operator, not only Node's stderr dump.
  process.on('unhandledRejection', (err) => {
    log.fatal({ err, role }, 'unhandled rejection: exiting');
    process.exit(1);
  });
  let shutdown: () => Promise<void>;
  try {
    shutdown = await run(role, config, log);
  } catch (err) {
    log.fatal({ err: err instanceof ConfigError || err instanceof MigrationChangedError ? err.message : err }, 'start failed');
    process.exit(1);
  }
  if (role === 'migrate') {
    await shutdown();
    return;
  }
  let stoppingSince = 0;
  const stop = (signal: string) => {
    // `npm start` relays the terminal's Ctrl-C, so one keypress can arrive twice within a few ms.
    if (stoppingSince && Date.now() - stoppingSince > 1000) {
      log.warn({ signal }, 'second signal: forcing exit');
      process.exit(1);
    }
    if (stoppingSince) return;
    stoppingSince = Date.now();
    log.info({ signal }, 'shutting down');
    shutdown().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
