// Structured JSON logs. Personal data and secrets are removed by configuration, so a careless
// `log.info({ body })` or a logged error still cannot leak a payer document, an e-mail or an API key:
// - pino's redact removes the sensitive fields by name;
// - every error logged, at any depth (the Temporal SDK's "Activity failed" puts it under `meta.error`),
//   becomes its class, its code (the SQLSTATE of a PostgreSQL error), a few structural fields and its
//   message with values masked; everything else an error carries (PostgreSQL's `detail`, `where`,
//   `query`, `parameters`, a failure's `details`) is dropped;
// - CPF, CNPJ and e-mail addresses are masked in every text: messages and string values.
import { types } from 'node:util';
import { pino, type Logger } from 'pino';

const SENSITIVE = [
  'document',
  'email',
  'name',
  'payer',
  'authorization',
  'Authorization',
  'apiKey',
  'key',
  'secret',
  'token',
  'password',
  'pixKey',
  'copyPaste',
  'qrCodeBase64',
];

const CENSOR = '[redacted]';

// Redact the sensitive fields at the top level and up to three levels down (pino paths need explicit depth).
export const REDACT_PATHS = SENSITIVE.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]).concat([
  'req.headers.authorization',
  'req.headers.cookie',
]);

const PERSONAL_PATTERNS = [
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, // e-mail
  /\b[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}\b/g, // CNPJ, numeric or alphanumeric
  /\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g, // CPF
];

/** The text with every CPF, CNPJ and e-mail address replaced by the censor. */
export function maskPersonalData(text: string): string {
  return PERSONAL_PATTERNS.reduce((masked, pattern) => masked.replace(pattern, CENSOR), text);
}

// PostgreSQL quotes the values it complains about (`invalid input syntax for type integer: "Maria"`)
// and the names of objects (`violates check constraint "x"`); only the names are kept.
const QUOTED_VALUE =
  /(\b(?:relation|column|constraint|table|index|type|function|schema|database|role|sequence|view|trigger|operator|extension)\s+)?"(?:[^"]|"")*"/gi;

function maskQuotedValues(message: string): string {
  return message.replace(QUOTED_VALUE, (quoted, objectKind: string | undefined) => (objectKind ? quoted : `"${CENSOR}"`));
}

/** Fields of an error that describe it without carrying data: codes, kinds, names of database objects. */
const STRUCTURAL_FIELDS = [
  'code',
  'severity',
  'routine',
  'schema_name',
  'table_name',
  'column_name',
  'constraint_name',
  'errno',
  'syscall',
  'status',
  'statusCode',
  'nonRetryable',
  'retryState',
  'activityType',
  'activityId',
] as const;

type Fields = Record<string, unknown>;

function isError(value: unknown): value is Error & Fields {
  return value instanceof Error || types.isNativeError(value);
}

function isDatabaseError(err: Error & Fields): boolean {
  return (
    err.name === 'PostgresError' ||
    err.type === 'PostgresError' ||
    (typeof err.severity === 'string' && /^[0-9A-Z]{5}$/.test(String(err.code)))
  );
}

const MAX_DEPTH = 8;

/** What may be logged of an error: class, code, structural fields, masked message, stack frames, cause. */
export function safeError(err: Error & Fields, depth = 0): Fields {
  const message = maskPersonalData(isDatabaseError(err) ? maskQuotedValues(String(err.message)) : String(err.message));
  const safe: Fields = { type: err.name || err.constructor?.name, message };
  // A Temporal ApplicationFailure's `type` names the original error's class (`PostgresError`).
  if (typeof err.type === 'string') safe.failureType = err.type;
  for (const field of STRUCTURAL_FIELDS) {
    const value = err[field];
    if (value !== undefined && value !== null && typeof value !== 'object') safe[field] = value;
  }
  // Only the frames: the stack's first line repeats the raw message.
  const frames = typeof err.stack === 'string' ? err.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  if (frames.length) safe.stack = frames.join('\n');
  if (err.cause !== undefined && depth < MAX_DEPTH)
    safe.cause = isError(err.cause) ? safeError(err.cause, depth + 1) : redactValue(err.cause, depth + 1);
  return safe;
}

function isPlainObject(value: unknown): value is Fields {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `value` with errors made safe and personal data masked in its texts, at any depth (a copy; the original is untouched). */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskPersonalData(value);
  if (depth >= MAX_DEPTH) return value;
  if (isError(value)) return safeError(value, depth);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, depth + 1)]));
  return value;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      // Child bindings and a top-level `err` go through here too (redactValue is idempotent).
      serializers: { err: (value: unknown) => redactValue(value) },
      hooks: {
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          // `log.error(err)` and `log.error(err, 'msg')`: pino's own form, made safe (its message as msg when none).
          const head = isError(first) ? { err: safeError(first) } : redactValue(first);
          const tail = isError(first) && rest.length === 0 ? [(head as { err: Fields }).err.message] : rest.map((arg) => redactValue(arg));
          return method.apply(this, [head, ...tail] as Parameters<typeof method>);
        },
      },
    },
    destination as pino.DestinationStream | undefined,
  );
}

export type { Logger };
