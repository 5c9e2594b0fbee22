// Every setting the engine reads from the environment, parsed and checked once at start.
import { readFileSync } from 'node:fs';
import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { isLoopbackHost, MIN_SECRET_LENGTH, weakness } from './exposed-settings.js';
import { loadRoutesFile, RoutesFileError, type BcbApiPixRouteConfig } from './processors/bcb-api-pix/routes-file.js';
import { parsePayloadKeys, PayloadKeysError, type PayloadKeys } from './temporal/codec/keys.js';

/** A Temporal server the engine connects to, with what a secured one (Temporal Cloud, mTLS) needs. */
export type TemporalServer = Pick<NativeConnectionOptions, 'tls' | 'apiKey' | 'metadata'> & { address: string };

export interface Config {
  port: number;
  host: string;
  adminPort: number;
  adminHost: string;
  adminToken: string | null;
  /** GET /metrics of a `worker`-only process (no admin port), on ADMIN_HOST; null: none. The api and all roles serve it on the admin port. */
  metricsPort: number | null;
  databaseUrl: string;
  databasePoolSize: number;
  databaseStatementTimeoutMs: number;
  /** The Temporal server to use; null (TEMPORAL_ADDRESS unset): `npm start` runs the embedded dev server. */
  temporalServer: TemporalServer | null;
  temporalNamespace: string;
  temporalTaskQueue: string;
  /** gRPC port of the embedded dev server. */
  temporalDevPort: number;
  temporalUiPort: number;
  temporalCliPath: string | null;
  /** PATH, where the temporal CLI and setpriv are looked for after .tools/bin. */
  searchPath: string;
  /** A prebuilt workflow bundle the worker loads instead of bundling workflows/ at start (tests, bench). */
  temporalWorkflowBundle: string | null;
  /**
   * Workflows the worker keeps in memory between their tasks (the SDK's sticky cache, maxCachedWorkflows), about
   * 0.1 to 0.2 MB each; a workflow not in it replays its history at its next task. What bounds the engine's memory
   * however many charges wait (bench/pending-memory.ts).
   */
  temporalMaxCachedWorkflows: number;
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
  /** Timeouts and the per-client connection cap of every HTTP listener (src/http/server.ts). */
  listener: ListenerBounds;
  publicBaseUrl: string | null;
  /** Keys of the payload codec (PAYLOAD_KEYS or PAYLOAD_KEYS_FILE); null when neither is set. */
  payloadKeys: PayloadKeys | null;
  /** Web UI origins allowed to call the codec endpoint from a browser (CORS). */
  codecCorsOrigins: string[];
  /** Secret path segment of the codec endpoint for a Web UI, which cannot send ADMIN_TOKEN (admin/routes/codec.ts). */
  codecUiSecret: string | null;
  /** The real Pix routes of PIX_ROUTES_FILE (empty when unset: only `simulator`). Holds secrets: never log it. */
  pixRoutes: BcbApiPixRouteConfig[];
  /** The PSP webhook listener (PSP_WEBHOOK_PORT / PSP_WEBHOOK_HOST). */
  pspWebhookPort: number;
  pspWebhookHost: string;
  /** HTTPS with the standard's mTLS when all three PSP_WEBHOOK_TLS_* files are set; null: plain HTTP behind a proxy. */
  pspWebhookTls: PspWebhookTls | null;
  /** Per transaction, at most one signal per this many ms from PSP webhooks; the hints between are coalesced into one. */
  pspWebhookHintIntervalMs: number;
  /** OpenTelemetry tracing, exported by OTLP/HTTP; null (OTEL_EXPORTER_OTLP_ENDPOINT unset): off. */
  tracing: TracingConfig | null;
  /** What the start logs as warnings: settings accepted here that would be refused if other machines could reach them. */
  warnings: string[];
}

export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to <endpoint>/v1/traces. */
  endpoint: string;
  /** OTEL_SERVICE_NAME, default `pix-engine`. */
  serviceName: string;
}

export interface ListenerBounds {
  /** A connection that sends no request within this is closed (HTTP_IDLE_TIMEOUT_MS); also a TLS handshake's bound. */
  idleTimeoutMs: number;
  /** The headers of a request must all arrive within this (HTTP_HEADERS_TIMEOUT_MS): 408. */
  headersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this (HTTP_REQUEST_TIMEOUT_MS): 408. */
  requestTimeoutMs: number;
  /** A kept-alive connection with no next request within this is closed (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold on one listener; past it a new one is closed at once (HTTP_MAX_CONNECTIONS_PER_IP). */
  maxConnectionsPerIp: number;
}

export interface PspWebhookTls {
  certFile: string;
  keyFile: string;
  /** CA that signed the PSP's client certificate: callers without one it signed are refused. */
  clientCaFile: string;
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

/** Reads and checks a payload key file; `label` names it in errors. */
export function readPayloadKeysFile(path: string, label: string): PayloadKeys {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${label}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return payloadKeysOf(text, label);
}

function payloadKeysOf(text: string, source: string): PayloadKeys {
  try {
    return parsePayloadKeys(text, source);
  } catch (err) {
    if (err instanceof PayloadKeysError) throw new ConfigError(err.message);
    throw err;
  }
}

function payloadKeys(env: Env): PayloadKeys | null {
  const inline = str(env, 'PAYLOAD_KEYS');
  const file = str(env, 'PAYLOAD_KEYS_FILE');
  if (inline && file) throw new ConfigError('PAYLOAD_KEYS and PAYLOAD_KEYS_FILE are both set: give the key set once');
  if (inline) return payloadKeysOf(inline, 'PAYLOAD_KEYS');
  if (file) return readPayloadKeysFile(file, `PAYLOAD_KEYS_FILE (${file})`);
  return null;
}

function origins(env: Env, name: string, fallback: string[]): string[] {
  const raw = str(env, name);
  if (raw === null) return fallback;
  const list = raw.split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of list) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || parsed.origin !== origin) throw new ConfigError(`${name} must list origins like http://localhost:8233 (scheme, host and port only), got "${origin}"`);
  }
  return list;
}

/** A secret of the codec UI path: random enough for any network, whatever ADMIN_HOST is (it travels in a URL). */
function pathSecret(env: Env, name: string): string | null {
  const raw = str(env, name);
  if (raw === null) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new ConfigError(`${name} must be letters, digits, '_' or '-' only (at least ${MIN_SECRET_LENGTH})`);
  const weak = weakness(raw);
  if (weak) throw new ConfigError(`${name} ${weak}: give a random one of at least ${MIN_SECRET_LENGTH} letters, digits, '_' or '-' (openssl rand -hex 32)`);
  return raw;
}

/**
 * ADMIN_TOKEN (no length rule in DESIGN.md): a weak one is accepted with a warning while the admin port
 * is on a loopback address, and refused when other machines reach it. The message never holds the value.
 */
function adminToken(env: Env, adminHost: string, warnings: string[]): string | null {
  const token = str(env, 'ADMIN_TOKEN');
  const weak = token === null ? null : weakness(token);
  if (!weak) return token;
  if (!isLoopbackHost(adminHost)) {
    throw new ConfigError(
      `ADMIN_TOKEN ${weak}, and ADMIN_HOST ${adminHost} lets other machines reach the admin API: give a random token of at least ${MIN_SECRET_LENGTH} characters (openssl rand -hex 32)`,
    );
  }
  warnings.push(`ADMIN_TOKEN ${weak}: accepted only because ADMIN_HOST ${adminHost} is a loopback address`);
  return token;
}

/** The variables, empty ones left out (empty means unset here, as for every variable of this file). */
function setVariables(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])));
}

/**
 * The server of TEMPORAL_ADDRESS, read with the SDK's envconfig: the profile TEMPORAL_PROFILE (default
 * `default`) of the config file TEMPORAL_CONFIG_FILE (default ~/.config/temporalio/temporal.toml), if
 * there is one, under the standard variables TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH
 * (or _DATA), TEMPORAL_TLS_CLIENT_KEY_PATH (or _DATA), TEMPORAL_TLS_SERVER_CA_CERT_PATH (or _DATA),
 * TEMPORAL_TLS_SERVER_NAME and TEMPORAL_GRPC_META_<HEADER>. An API key turns TLS on. Without
 * TEMPORAL_ADDRESS neither file nor profile is read: the embedded dev server is plain local gRPC.
 */
function temporalServer(env: Env): { server: TemporalServer; namespace: string | undefined } | null {
  const address = str(env, 'TEMPORAL_ADDRESS');
  if (address === null) return null;
  bool(env, 'TEMPORAL_TLS', false); // envconfig would read any other word as false
  try {
    const profile = loadClientConfigProfile({ overrideEnvVars: { ...setVariables(env), TEMPORAL_ADDRESS: address } });
    if (Boolean(profile.tls?.clientCert) !== Boolean(profile.tls?.clientKey)) {
      throw new ConfigError('TEMPORAL_TLS_CLIENT_CERT_* and TEMPORAL_TLS_CLIENT_KEY_* go together: give both or neither');
    }
    const { namespace, connectionOptions } = toClientOptions(profile);
    const { tls, apiKey, metadata } = connectionOptions;
    return {
      server: { address, ...(tls === undefined ? {} : { tls }), ...(apiKey === undefined ? {} : { apiKey }), ...(metadata === undefined ? {} : { metadata }) },
      namespace,
    };
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`Temporal connection settings (TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE, TEMPORAL_TLS_*): ${(err as Error).message}`);
  }
}

function tracing(env: Env): TracingConfig | null {
  const endpoint = str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(endpoint);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  return { endpoint, serviceName: str(env, 'OTEL_SERVICE_NAME') ?? 'pix-engine' };
}

function pixRoutes(env: Env, warnings: string[]): BcbApiPixRouteConfig[] {
  const file = str(env, 'PIX_ROUTES_FILE');
  if (file === null) return [];
  try {
    return loadRoutesFile(file, (warning) => warnings.push(warning));
  } catch (err) {
    if (err instanceof RoutesFileError) throw new ConfigError(err.message);
    throw err;
  }
}

const PSP_WEBHOOK_TLS = ['PSP_WEBHOOK_TLS_CERT_FILE', 'PSP_WEBHOOK_TLS_KEY_FILE', 'PSP_WEBHOOK_CLIENT_CA_FILE'];

function pspWebhookTls(env: Env): PspWebhookTls | null {
  const [certFile, keyFile, clientCaFile] = PSP_WEBHOOK_TLS.map((name) => str(env, name));
  if (!certFile && !keyFile && !clientCaFile) return null;
  if (!certFile || !keyFile || !clientCaFile) throw new ConfigError(`${PSP_WEBHOOK_TLS.join(', ')} go together: set all three (mTLS) or none (plain HTTP behind a proxy)`);
  return { certFile, keyFile, clientCaFile };
}

/**
 * Where the PSP webhook listener binds. With the mTLS files: PSP_WEBHOOK_HOST, default 0.0.0.0. Without
 * them the listener is plain HTTP, which other machines reach only when asked for: PSP_WEBHOOK_PLAIN_HTTP=true
 * (a proxy that terminates TLS and checks the PSP's certificate) or a PSP_WEBHOOK_HOST named explicitly,
 * which DESIGN.md documents for that proxy and which then starts with a warning. Unset, the host is
 * 127.0.0.1, with a warning saying how to open it.
 */
function pspWebhookHost(env: Env, tls: PspWebhookTls | null, warnings: string[]): string {
  const host = str(env, 'PSP_WEBHOOK_HOST');
  const plainHttp = bool(env, 'PSP_WEBHOOK_PLAIN_HTTP', false);
  if (tls || plainHttp || str(env, 'PIX_ROUTES_FILE') === null) return host ?? '0.0.0.0';
  if (host === null) {
    warnings.push(
      'PSP webhook listener on 127.0.0.1 only: no PSP_WEBHOOK_TLS_* files. To take webhooks from PSPs set PSP_WEBHOOK_HOST and either the three PSP_WEBHOOK_TLS_* files (mTLS) or PSP_WEBHOOK_PLAIN_HTTP=true behind a proxy that terminates TLS',
    );
    return '127.0.0.1';
  }
  if (!isLoopbackHost(host)) {
    warnings.push(
      `PSP_WEBHOOK_HOST ${host} without the PSP_WEBHOOK_TLS_* files takes webhooks in plain HTTP from other machines: put a proxy that terminates TLS and checks the PSP's certificate in front (then set PSP_WEBHOOK_PLAIN_HTTP=true to say so), or set the three files (mTLS)`,
    );
  }
  return host;
}

function listenerBounds(env: Env): ListenerBounds {
  const requestTimeoutMs = int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1);
  const headersTimeoutMs = int(env, 'HTTP_HEADERS_TIMEOUT_MS', Math.min(20_000, requestTimeoutMs), 1);
  if (headersTimeoutMs > requestTimeoutMs) throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    idleTimeoutMs: int(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000, 1),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000, 1),
    maxConnectionsPerIp: int(env, 'HTTP_MAX_CONNECTIONS_PER_IP', 1024, 1),
  };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const warnings: string[] = [];
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const simulatorTransferDelayMs = int(env, 'SIMULATOR_TRANSFER_DELAY_MS', 2000, -1);
  const temporalUiPort = int(env, 'TEMPORAL_UI_PORT', 8233, 1, 65535);
  const temporal = temporalServer(env);
  const adminHost = env.ADMIN_HOST || '127.0.0.1';
  const pspTls = pspWebhookTls(env);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    adminPort: int(env, 'ADMIN_PORT', 3001, 0, 65535),
    adminHost,
    adminToken: adminToken(env, adminHost, warnings),
    metricsPort: str(env, 'METRICS_PORT') === null ? null : int(env, 'METRICS_PORT', 0, 0, 65535),
    databaseUrl: env.DATABASE_URL || 'postgres://localhost:5432/pix',
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 0),
    temporalServer: temporal?.server ?? null,
    temporalNamespace: str(env, 'TEMPORAL_NAMESPACE') ?? temporal?.namespace ?? 'default',
    temporalTaskQueue: env.TEMPORAL_TASK_QUEUE || 'pix',
    temporalDevPort: int(env, 'TEMPORAL_DEV_PORT', 7233, 1, 65535),
    temporalUiPort,
    temporalCliPath: str(env, 'TEMPORAL_CLI_PATH'),
    searchPath: env.PATH ?? '',
    temporalWorkflowBundle: str(env, 'TEMPORAL_WORKFLOW_BUNDLE'),
    temporalMaxCachedWorkflows: int(env, 'TEMPORAL_MAX_CACHED_WORKFLOWS', 250, 0, 1_000_000),
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
    listener: listenerBounds(env),
    publicBaseUrl: str(env, 'PUBLIC_BASE_URL'),
    payloadKeys: payloadKeys(env),
    codecUiSecret: pathSecret(env, 'CODEC_UI_SECRET'),
    codecCorsOrigins: origins(env, 'CODEC_CORS_ORIGINS', [`http://localhost:${temporalUiPort}`, `http://127.0.0.1:${temporalUiPort}`]),
    pixRoutes: pixRoutes(env, warnings),
    pspWebhookPort: int(env, 'PSP_WEBHOOK_PORT', 3002, 0, 65535),
    pspWebhookHost: pspWebhookHost(env, pspTls, warnings),
    pspWebhookTls: pspTls,
    pspWebhookHintIntervalMs: int(env, 'PSP_WEBHOOK_HINT_INTERVAL_MS', 1000, 0, 3_600_000),
    tracing: tracing(env),
    warnings,
  };
}

/** pixctl's settings: where the admin API is (PIX_ADMIN_URL, the server root or its /admin) and its token. */
export interface CliConfig {
  adminUrl: string;
  adminToken: string | null;
}

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3001';

export function loadCliConfig(env: Env = process.env): CliConfig {
  return {
    adminUrl: (str(env, 'PIX_ADMIN_URL') ?? DEFAULT_ADMIN_URL).replace(/\/+$/, '').replace(/\/admin$/, ''),
    adminToken: str(env, 'ADMIN_TOKEN'),
  };
}
