// Structured JSON logs. Personal data and secrets are removed by configuration (pino's redact), so a
// careless `log.info({ body })` still cannot leak a payer document, an e-mail or an API key.
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

// Redact the sensitive fields at the top level and up to three levels down (pino paths need explicit depth).
export const REDACT_PATHS = SENSITIVE.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]).concat([
  'req.headers.authorization',
  'req.headers.cookie',
]);

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination as pino.DestinationStream | undefined,
  );
}

export type { Logger };
