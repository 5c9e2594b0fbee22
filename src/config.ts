// Every setting the engine reads from the environment, parsed and checked once at start.

export interface Config {
  port: number;
  host: string;
  adminPort: number;
  adminHost: string;
  adminToken: string | null;
  databaseUrl: string;
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  temporalAddress: string | null;
  temporalNamespace: string;
  temporalTaskQueue: string;
  temporalUiPort: number;
  temporalCliPath: string | null;
  temporalTestServerPath: string | null;
  dataDir: string;
  chargeTtlSeconds: number;
  /** How long the receiving side has to decide an open MED before operators are alerted. */
  medDecisionDeadlineSeconds: number;
  acceptWaitMs: number;
  webhookAllowInsecure: boolean;
  /** Wait before the 2nd delivery attempt; doubles after each failed attempt up to webhookRetryMaxMs. */
  webhookRetryInitialMs: number;
  webhookRetryMaxMs: number;
  simulatorTransferDelayMs: number;
  trustProxy: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  publicBaseUrl: string | null;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function str(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const simulatorTransferDelayMs = int(env, 'SIMULATOR_TRANSFER_DELAY_MS', 2000, -1);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    adminPort: int(env, 'ADMIN_PORT', 3001, 0, 65535),
    adminHost: env.ADMIN_HOST || '127.0.0.1',
    adminToken: str(env, 'ADMIN_TOKEN'),
    databaseUrl: env.DATABASE_URL || 'postgres://localhost:5432/pix',
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 0),
    temporalAddress: str(env, 'TEMPORAL_ADDRESS'),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    temporalTaskQueue: env.TEMPORAL_TASK_QUEUE || 'pix',
    temporalUiPort: int(env, 'TEMPORAL_UI_PORT', 8233, 1, 65535),
    temporalCliPath: str(env, 'TEMPORAL_CLI_PATH'),
    temporalTestServerPath: str(env, 'TEMPORAL_TEST_SERVER_PATH'),
    dataDir: env.DATA_DIR || '.data',
    chargeTtlSeconds: int(env, 'CHARGE_TTL_SECONDS', 900, 1),
    medDecisionDeadlineSeconds: int(env, 'MED_DECISION_DEADLINE_SECONDS', 7 * 24 * 60 * 60, 1),
    acceptWaitMs: int(env, 'ACCEPT_WAIT_MS', 5000, 1),
    webhookAllowInsecure: bool(env, 'WEBHOOK_ALLOW_INSECURE', false),
    webhookRetryInitialMs: int(env, 'WEBHOOK_RETRY_INITIAL_MS', 5000, 1),
    webhookRetryMaxMs: int(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 1),
    simulatorTransferDelayMs,
    trustProxy: bool(env, 'TRUST_PROXY', false),
    logLevel,
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024),
    publicBaseUrl: str(env, 'PUBLIC_BASE_URL'),
  };
}
