// Every setting the engine reads from the environment, parsed and checked once at start.
import { readFileSync } from 'node:fs';
import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import Type, { type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { isLoopbackHost, MIN_SECRET_LENGTH, weakness } from './exposed-settings.js';
import { loadRoutesFile, RoutesFileError, type BcbApiPixRouteConfig } from './routes-file.js';
import { firstFailure, REFUSAL } from './settings-schema.js';
import { parsePayloadKeys, PayloadKeysError, type PayloadKeys } from './payload-keys.js';

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
  /** Pix Automático: days before a cycle's due date its charge is created (2 to 10). */
  recurrenceLeadDays: number;
  /** Pix Automático: days the payer has to authorize a recurrence. */
  recurrenceAuthorizationDays: number;
  /** How long the receiving side has to decide an open MED before operators are alerted. */
  medDecisionDeadlineSeconds: number;
  acceptWaitMs: number;
  webhookAllowInsecure: boolean;
  /** Wait before the 2nd delivery attempt; doubles after each failed attempt up to webhookRetryMaxMs. */
  webhookRetryInitialMs: number;
  webhookRetryMaxMs: number;
  simulatorTransferDelayMs: number;
  /** When each route's daily reconciliation run starts (RECONCILE_AT, America/Sao_Paulo); null (`off`): this process schedules none. */
  reconcileAt: TimeOfDay | null;
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
  /** Origins allowed to embed the payer's page in a frame (CSP frame-ancestors); empty: none. */
  checkoutFrameAncestors: string[];
  /** The bounds of the payer's page's live status by server-sent events (src/api/checkout/live.ts). */
  checkoutEventStreams: EventStreamBounds;
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

export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface TracingConfig {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to <endpoint>/v1/traces. */
  endpoint: string;
  /** OTEL_SERVICE_NAME, default `pix-engine`. */
  serviceName: string;
  /** OTEL_TRACES_SAMPLER, default `parentbased_always_on`: which traces are recorded and exported. */
  sampler: TracesSampler;
  /** OTEL_TRACES_SAMPLER_ARG, default 1: the share of traces a `traceidratio` sampler records. */
  samplerRatio: number;
}

/** The standard values of OTEL_TRACES_SAMPLER that the engine honours. */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

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

export interface EventStreamBounds {
  /** Open streams one API process holds; the next is refused with a 503 and the page polls (CHECKOUT_EVENT_STREAMS_MAX). */
  maxStreams: number;
  /** A stream is ended after at most this, and the page's EventSource reconnects (CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS). */
  lifetimeMs: number;
}

export interface PspWebhookTls {
  certFile: string;
  keyFile: string;
  /** CA that signed the PSP's client certificate: callers without one it signed are refused. */
  clientCaFile: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** An integer variable from `minimum` to `maximum`; `fallback` when unset (null: none, the variable is optional). */
const integer = (fallback: number | null, minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  Type.Integer({
    minimum,
    maximum,
    ...(fallback === null ? {} : { default: fallback }),
    [REFUSAL]: (text: unknown) => `must be an integer from ${minimum} to ${maximum}, got "${text}"`,
  });

/** A decimal number from `minimum` to `maximum`; `fallback` when unset. */
const decimal = (fallback: number, minimum: number, maximum: number, meaning: string) =>
  Type.Number({
    minimum,
    maximum,
    default: fallback,
    [REFUSAL]: (text: unknown) => `must be a number from ${minimum} to ${maximum} (${meaning}), got "${text}"`,
  });

/** `true`/`1` or `false`/`0`; `fallback` when unset (null: none). */
const flag = (fallback: boolean | null) =>
  Type.Boolean({
    ...(fallback === null ? {} : { default: fallback }),
    [REFUSAL]: (text: unknown) => `must be true or false, got "${text}"`,
  });

const textOr = (fallback: string) => Type.String({ default: fallback });

const text = () => Type.Optional(Type.String());

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const isUrl = (value: string, protocols: string[]) => URL.canParse(value) && protocols.includes(new URL(value).protocol);

/** A secret of the codec UI path: random enough for any network, whatever ADMIN_HOST is (it travels in a URL). */
const PathSecret = Type.Refine(
  Type.String({ pattern: '^[A-Za-z0-9_-]+$', [REFUSAL]: `must be letters, digits, '_' or '-' only (at least ${MIN_SECRET_LENGTH})` }),
  (secret) => weakness(secret) === null,
  (secret) => `${weakness(secret)}: give a random one of at least ${MIN_SECRET_LENGTH} letters, digits, '_' or '-' (openssl rand -hex 32)`,
);

const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;

const ReconcileAt = Type.String({
  pattern: `${TIME_OF_DAY.source}|^off$`,
  default: '04:00',
  [REFUSAL]: (text: unknown) => `must be a time of day HH:MM (24 hours, America/Sao_Paulo) or off, got "${text}"`,
});

function timeOfDay(text: string): TimeOfDay | null {
  const match = TIME_OF_DAY.exec(text);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

const Origin = Type.Refine(
  Type.String(),
  (origin) => URL.canParse(origin) && new URL(origin).origin === origin,
  (origin) => `must list origins like http://localhost:8233 (scheme, host and port only), got "${origin}"`,
);

/**
 * Every variable this file reads, with its rule and default, in the order they are checked; an empty
 * variable is an unset one. What depends on other settings is checked after, by the functions below.
 */
const Environment = Type.Object({
  LOG_LEVEL: Type.Enum(LOG_LEVELS, { default: 'info', [REFUSAL]: `must be one of ${LOG_LEVELS.join(', ')}` }),
  SIMULATOR_TRANSFER_DELAY_MS: integer(2000, -1),
  RECONCILE_AT: ReconcileAt,
  TEMPORAL_UI_PORT: integer(8233, 1, 65535),
  TEMPORAL_ADDRESS: text(),
  /** Checked only with TEMPORAL_ADDRESS, without which envconfig (which reads any other word as false) does not read it. */
  TEMPORAL_TLS: Type.Optional(flag(null)),
  TEMPORAL_NAMESPACE: text(),
  PORT: integer(3000, 0, 65535),
  HOST: textOr('0.0.0.0'),
  ADMIN_PORT: integer(3001, 0, 65535),
  ADMIN_HOST: textOr('127.0.0.1'),
  ADMIN_TOKEN: text(),
  METRICS_PORT: Type.Optional(integer(null, 0, 65535)),
  DATABASE_URL: textOr('postgres://localhost:5432/pix'),
  DATABASE_POOL_SIZE: integer(10, 1, 1000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(10_000, 0),
  TEMPORAL_TASK_QUEUE: textOr('pix'),
  TEMPORAL_DEV_PORT: integer(7233, 1, 65535),
  TEMPORAL_CLI_PATH: text(),
  PATH: textOr(''),
  TEMPORAL_WORKFLOW_BUNDLE: text(),
  TEMPORAL_MAX_CACHED_WORKFLOWS: integer(250, 0, 1_000_000),
  DATA_DIR: textOr('.data'),
  CHARGE_TTL_SECONDS: integer(900, 1),
  RECURRENCE_LEAD_DAYS: integer(7, 2, 10),
  RECURRENCE_AUTHORIZATION_DAYS: integer(7, 1, 365),
  MED_DECISION_DEADLINE_SECONDS: integer(7 * 24 * 60 * 60, 1),
  ACCEPT_WAIT_MS: integer(5000, 1),
  WEBHOOK_ALLOW_INSECURE: flag(false),
  WEBHOOK_RETRY_INITIAL_MS: integer(5000, 1),
  WEBHOOK_RETRY_MAX_MS: integer(3_600_000, 1),
  TRUST_PROXY: flag(false),
  BODY_LIMIT_BYTES: integer(1024 * 1024, 1024),
  HTTP_REQUEST_TIMEOUT_MS: integer(30_000, 1),
  HTTP_HEADERS_TIMEOUT_MS: Type.Optional(integer(null, 1)),
  HTTP_IDLE_TIMEOUT_MS: integer(60_000, 1),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(5000, 1),
  HTTP_MAX_CONNECTIONS_PER_IP: integer(1024, 1),
  PUBLIC_BASE_URL: text(),
  PAYLOAD_KEYS: text(),
  PAYLOAD_KEYS_FILE: text(),
  CODEC_UI_SECRET: Type.Optional(PathSecret),
  /** A comma-separated list. */
  CODEC_CORS_ORIGINS: Type.Optional(Type.Array(Origin)),
  /** A comma-separated list: origins allowed to frame the payer's page (default none). */
  CHECKOUT_FRAME_ANCESTORS: Type.Optional(Type.Array(Origin)),
  CHECKOUT_EVENT_STREAMS_MAX: integer(10_000, 0),
  CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS: integer(900, 1, 86_400),
  PIX_ROUTES_FILE: text(),
  PSP_WEBHOOK_PORT: integer(3002, 0, 65535),
  PSP_WEBHOOK_HOST: text(),
  PSP_WEBHOOK_PLAIN_HTTP: flag(false),
  PSP_WEBHOOK_TLS_CERT_FILE: text(),
  PSP_WEBHOOK_TLS_KEY_FILE: text(),
  PSP_WEBHOOK_CLIENT_CA_FILE: text(),
  PSP_WEBHOOK_HINT_INTERVAL_MS: integer(1000, 0, 3_600_000),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.Refine(
      Type.String(),
      (endpoint) => isUrl(endpoint, ['http:', 'https:']),
      (endpoint) => `must be an http(s) URL, got "${endpoint}"`,
    ),
  ),
  OTEL_SERVICE_NAME: textOr('pix-engine'),
  OTEL_TRACES_SAMPLER: Type.Enum(TRACES_SAMPLERS, {
    default: 'parentbased_always_on',
    [REFUSAL]: (text: unknown) => `must be one of ${TRACES_SAMPLERS.join(', ')}, got "${text}"`,
  }),
  OTEL_TRACES_SAMPLER_ARG: decimal(1, 0, 1, 'the share of traces sampled, e.g. 0.1'),
});

type Settings = Static<typeof Environment>;

const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

const FLAGS = new Map([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
]);

/**
 * A variable's text as the value its schema checks. By hand rather than Value.Convert, which would also
 * take "TRUE" as true, "true" as the integer 1 and truncate 1.5 to 1.
 */
function fromText(schema: TSchema, text: string): unknown {
  if (Type.IsInteger(schema)) return Number(text);
  if (Type.IsNumber(schema)) return DECIMAL.test(text) ? Number(text) : text;
  if (Type.IsBoolean(schema)) return FLAGS.get(text) ?? text;
  if (Type.IsArray(schema))
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return text;
}

/** The variables read, checked and with their defaults; a refusal names the variable and quotes its text. */
function settingsOf(env: Env): Settings {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(Environment.properties)) {
    const text = env[name];
    if (text) values[name] = fromText(schema, text);
  }
  if (values.TEMPORAL_ADDRESS === undefined) delete values.TEMPORAL_TLS;
  Value.Default(Environment, values);
  const failure = firstFailure(Environment, values, ([name]) => env[name!]);
  if (failure) throw new ConfigError(`${failure.steps[0]} ${failure.phrase}`);
  return values as Settings;
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

function payloadKeys(settings: Settings): PayloadKeys | null {
  const { PAYLOAD_KEYS: inline, PAYLOAD_KEYS_FILE: file } = settings;
  if (inline && file) throw new ConfigError('PAYLOAD_KEYS and PAYLOAD_KEYS_FILE are both set: give the key set once');
  if (inline) return payloadKeysOf(inline, 'PAYLOAD_KEYS');
  if (file) return readPayloadKeysFile(file, `PAYLOAD_KEYS_FILE (${file})`);
  return null;
}

/**
 * ADMIN_TOKEN (no length rule in DESIGN.md): a weak one is accepted with a warning while the admin port
 * is on a loopback address, and refused when other machines reach it. The message never holds the value.
 */
function adminToken(token: string | null, adminHost: string, warnings: string[]): string | null {
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
function temporalServer(env: Env, address: string | undefined): { server: TemporalServer; namespace: string | undefined } | null {
  if (address === undefined) return null;
  try {
    const profile = loadClientConfigProfile({ overrideEnvVars: { ...setVariables(env), TEMPORAL_ADDRESS: address } });
    if (Boolean(profile.tls?.clientCert) !== Boolean(profile.tls?.clientKey)) {
      throw new ConfigError('TEMPORAL_TLS_CLIENT_CERT_* and TEMPORAL_TLS_CLIENT_KEY_* go together: give both or neither');
    }
    const { namespace, connectionOptions } = toClientOptions(profile);
    const { tls, apiKey, metadata } = connectionOptions;
    return {
      server: {
        address,
        ...(tls === undefined ? {} : { tls }),
        ...(apiKey === undefined ? {} : { apiKey }),
        ...(metadata === undefined ? {} : { metadata }),
      },
      namespace,
    };
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(
      `Temporal connection settings (TEMPORAL_PROFILE, TEMPORAL_CONFIG_FILE, TEMPORAL_TLS_*): ${(err as Error).message}`,
    );
  }
}

function pixRoutes(file: string | undefined, warnings: string[]): BcbApiPixRouteConfig[] {
  if (file === undefined) return [];
  try {
    return loadRoutesFile(file, (warning) => warnings.push(warning));
  } catch (err) {
    if (err instanceof RoutesFileError) throw new ConfigError(err.message);
    throw err;
  }
}

const PSP_WEBHOOK_TLS = ['PSP_WEBHOOK_TLS_CERT_FILE', 'PSP_WEBHOOK_TLS_KEY_FILE', 'PSP_WEBHOOK_CLIENT_CA_FILE'] as const;

function pspWebhookTls(settings: Settings): PspWebhookTls | null {
  const [certFile, keyFile, clientCaFile] = PSP_WEBHOOK_TLS.map((name) => settings[name]);
  if (!certFile && !keyFile && !clientCaFile) return null;
  if (!certFile || !keyFile || !clientCaFile)
    throw new ConfigError(`${PSP_WEBHOOK_TLS.join(', ')} go together: set all three (mTLS) or none (plain HTTP behind a proxy)`);
  return { certFile, keyFile, clientCaFile };
}

/**
 * Where the PSP webhook listener binds. With the mTLS files: PSP_WEBHOOK_HOST, default 0.0.0.0. Without
 * them the listener is plain HTTP, which other machines reach only when asked for: PSP_WEBHOOK_PLAIN_HTTP=true
 * (a proxy that terminates TLS and checks the PSP's certificate) or a PSP_WEBHOOK_HOST named explicitly,
 * which DESIGN.md documents for that proxy and which then starts with a warning. Unset, the host is
 * 127.0.0.1, with a warning saying how to open it.
 */
function pspWebhookHost(settings: Settings, tls: PspWebhookTls | null, warnings: string[]): string {
  const host = settings.PSP_WEBHOOK_HOST;
  if (tls || settings.PSP_WEBHOOK_PLAIN_HTTP || settings.PIX_ROUTES_FILE === undefined) return host ?? '0.0.0.0';
  if (host === undefined) {
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

function listenerBounds(settings: Settings): ListenerBounds {
  const requestTimeoutMs = settings.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = settings.HTTP_HEADERS_TIMEOUT_MS ?? Math.min(20_000, requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return {
    idleTimeoutMs: settings.HTTP_IDLE_TIMEOUT_MS,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: settings.HTTP_MAX_CONNECTIONS_PER_IP,
  };
}

function tracingConfig(endpoint: string, settings: Settings, env: Env, warnings: string[]): TracingConfig {
  const sampler = settings.OTEL_TRACES_SAMPLER as TracesSampler;
  if (env.OTEL_TRACES_SAMPLER_ARG && !sampler.endsWith('traceidratio'))
    warnings.push(`OTEL_TRACES_SAMPLER_ARG is ignored: only a traceidratio sampler reads it, and OTEL_TRACES_SAMPLER is ${sampler}`);
  return { endpoint, serviceName: settings.OTEL_SERVICE_NAME, sampler, samplerRatio: settings.OTEL_TRACES_SAMPLER_ARG };
}

export function loadConfig(env: Env = process.env): Config {
  const settings = settingsOf(env);
  const warnings: string[] = [];
  const temporal = temporalServer(env, settings.TEMPORAL_ADDRESS);
  const pspTls = pspWebhookTls(settings);
  const uiPort = settings.TEMPORAL_UI_PORT;
  const endpoint = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  return {
    port: settings.PORT,
    host: settings.HOST,
    adminPort: settings.ADMIN_PORT,
    adminHost: settings.ADMIN_HOST,
    adminToken: adminToken(settings.ADMIN_TOKEN ?? null, settings.ADMIN_HOST, warnings),
    metricsPort: settings.METRICS_PORT ?? null,
    databaseUrl: settings.DATABASE_URL,
    databasePoolSize: settings.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    temporalServer: temporal?.server ?? null,
    temporalNamespace: settings.TEMPORAL_NAMESPACE ?? temporal?.namespace ?? 'default',
    temporalTaskQueue: settings.TEMPORAL_TASK_QUEUE,
    temporalDevPort: settings.TEMPORAL_DEV_PORT,
    temporalUiPort: uiPort,
    temporalCliPath: settings.TEMPORAL_CLI_PATH ?? null,
    searchPath: settings.PATH,
    temporalWorkflowBundle: settings.TEMPORAL_WORKFLOW_BUNDLE ?? null,
    temporalMaxCachedWorkflows: settings.TEMPORAL_MAX_CACHED_WORKFLOWS,
    dataDir: settings.DATA_DIR,
    chargeTtlSeconds: settings.CHARGE_TTL_SECONDS,
    recurrenceLeadDays: settings.RECURRENCE_LEAD_DAYS,
    recurrenceAuthorizationDays: settings.RECURRENCE_AUTHORIZATION_DAYS,
    medDecisionDeadlineSeconds: settings.MED_DECISION_DEADLINE_SECONDS,
    acceptWaitMs: settings.ACCEPT_WAIT_MS,
    webhookAllowInsecure: settings.WEBHOOK_ALLOW_INSECURE,
    webhookRetryInitialMs: settings.WEBHOOK_RETRY_INITIAL_MS,
    webhookRetryMaxMs: settings.WEBHOOK_RETRY_MAX_MS,
    simulatorTransferDelayMs: settings.SIMULATOR_TRANSFER_DELAY_MS,
    reconcileAt: timeOfDay(settings.RECONCILE_AT),
    trustProxy: settings.TRUST_PROXY,
    logLevel: settings.LOG_LEVEL,
    bodyLimitBytes: settings.BODY_LIMIT_BYTES,
    listener: listenerBounds(settings),
    publicBaseUrl: settings.PUBLIC_BASE_URL ?? null,
    payloadKeys: payloadKeys(settings),
    codecUiSecret: settings.CODEC_UI_SECRET ?? null,
    codecCorsOrigins: settings.CODEC_CORS_ORIGINS ?? [`http://localhost:${uiPort}`, `http://127.0.0.1:${uiPort}`],
    checkoutFrameAncestors: settings.CHECKOUT_FRAME_ANCESTORS ?? [],
    checkoutEventStreams: {
      maxStreams: settings.CHECKOUT_EVENT_STREAMS_MAX,
      lifetimeMs: settings.CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS * 1000,
    },
    pixRoutes: pixRoutes(settings.PIX_ROUTES_FILE, warnings),
    pspWebhookPort: settings.PSP_WEBHOOK_PORT,
    pspWebhookHost: pspWebhookHost(settings, pspTls, warnings),
    pspWebhookTls: pspTls,
    pspWebhookHintIntervalMs: settings.PSP_WEBHOOK_HINT_INTERVAL_MS,
    tracing: endpoint === undefined ? null : tracingConfig(endpoint, settings, env, warnings),
    warnings,
  };
}

/** pixctl's settings: where the admin API is (PIX_ADMIN_URL, the server root or its /admin) and its token. */
export interface CliConfig {
  adminUrl: string;
  adminToken: string | null;
  /** Where pixctl keeps what it makes once (the signing secrets of `pixctl listen`). */
  dataDir: string;
}

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3001';

export function loadCliConfig(env: Env = process.env): CliConfig {
  const { PIX_ADMIN_URL, ADMIN_TOKEN, DATA_DIR } = setVariables(env);
  return {
    adminUrl: (PIX_ADMIN_URL ?? DEFAULT_ADMIN_URL).replace(/\/+$/, '').replace(/\/admin$/, ''),
    adminToken: ADMIN_TOKEN ?? null,
    dataDir: DATA_DIR ?? '.data',
  };
}
