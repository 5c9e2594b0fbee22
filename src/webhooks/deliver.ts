// One delivery attempt: a single HTTP POST to the receiver. 8 seconds for the whole exchange, no
// redirect followed (a 3xx is a failed attempt), any 2xx is a success. The response body is discarded.
import http from 'node:http';
import https from 'node:https';
import { SpanKind } from '@opentelemetry/api';
import { inSpan, traceHeaders } from '../tracing/spans.js';
import { isRefusedAddressError, parseReceiverUrl, receiverAgent } from './ssrf.js';

const ATTEMPT_TIMEOUT_MS = 8000;

export type AttemptErrorCode = 'invalid_url' | 'address_refused' | 'timeout' | 'connection_failed' | 'redirect' | 'http_status';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  errorCode: AttemptErrorCode | null;
  /** Portuguese, for operators; never contains the body or the signing key. */
  error: string | null;
  durationMs: number;
}

export interface PostRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowInsecure: boolean;
}

class AttemptTimeout extends Error {}

function outcome(statusCode: number, durationMs: number): AttemptResult {
  if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, errorCode: null, error: null, durationMs };
  if (statusCode >= 300 && statusCode < 400) {
    return { ok: false, statusCode, errorCode: 'redirect', error: `redirecionamento (HTTP ${statusCode}) não é seguido`, durationMs };
  }
  return { ok: false, statusCode, errorCode: 'http_status', error: `o receptor respondeu HTTP ${statusCode}`, durationMs };
}

function failure(err: Error, durationMs: number): AttemptResult {
  if (err instanceof AttemptTimeout) {
    return { ok: false, statusCode: null, errorCode: 'timeout', error: `sem resposta em ${ATTEMPT_TIMEOUT_MS / 1000} s`, durationMs };
  }
  if (isRefusedAddressError(err)) {
    return { ok: false, statusCode: null, errorCode: 'address_refused', error: 'o endereço do receptor não é público (SSRF)', durationMs };
  }
  const code = (err as NodeJS.ErrnoException).code;
  return { ok: false, statusCode: null, errorCode: 'connection_failed', error: `falha de conexão${code ? ` (${code})` : ''}`, durationMs };
}

/** The POST in a client span whose W3C `traceparent` the receiver gets (none when tracing is off). */
export function postWebhook(request: PostRequest): Promise<AttemptResult> {
  return inSpan(
    'webhook.post',
    () => ({ 'http.request.method': 'POST' }),
    async (span) => {
      const result = await send({ ...request, headers: { ...request.headers, ...traceHeaders() } });
      if (result.statusCode !== null) span?.setAttribute('http.response.status_code', result.statusCode);
      span?.setAttribute('webhook.outcome', result.ok ? 'success' : (result.errorCode ?? 'failure'));
      return result;
    },
    SpanKind.CLIENT,
  );
}

function send(request: PostRequest): Promise<AttemptResult> {
  const parsed = parseReceiverUrl(request.url, request.allowInsecure);
  if (!parsed.ok) return Promise.resolve({ ok: false, statusCode: null, errorCode: 'invalid_url', error: parsed.reason, durationMs: 0 });
  const url = parsed.url;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  // Only the first resolve counts: an error after the status (the timer freeing the socket) changes nothing.
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? https.request : http.request;
    const req = send(url, {
      method: 'POST',
      agent: receiverAgent(url, request.allowInsecure),
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
    });
    // The timer covers the whole exchange; once the status is known it only frees the socket.
    const timer = setTimeout(() => req.destroy(new AttemptTimeout()), ATTEMPT_TIMEOUT_MS);
    req.on('response', (res) => {
      resolve(outcome(res.statusCode ?? 0, elapsed()));
      res.on('error', () => {});
      res.on('close', () => clearTimeout(timer));
      res.resume();
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      resolve(failure(err, elapsed()));
    });
    req.end(request.body);
  });
}
