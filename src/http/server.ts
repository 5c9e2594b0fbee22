// The HTTP server of every listener (public API, admin API, PSP webhooks, metrics), bounded so that
// no client can hold sockets for good: a connection that sends no request within the idle timeout is
// closed; the headers, then the whole request, must arrive within their timeouts (a 408); a kept-alive
// connection waits for its next request at most the keep-alive timeout; and one client address holds
// at most so many connections at once, counted by the socket's address (X-Forwarded-For is the
// client's own word, so it only ever names the caller in logs, TRUST_PROXY or not). Requests Node's
// parser refuses before any middleware runs (headers over the size limit, malformed HTTP, too slow)
// get the service's envelope and headers too, instead of Node's bare status line.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Server as TlsServer, type TlsOptions } from 'node:tls';
import type Koa from 'koa';
import type { ListenerBounds } from '../config/config.js';
import type { Logger } from '../runtime/log.js';
import { connectionsRefused } from '../metrics/registry.js';
import { errorBody, newRequestId, SERVICE_VERSION } from './edge.js';
import { ApiError } from './errors.js';

// Node's own choice of status for each parser error (its default clientError handler), the rest 400.
const PARSER_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Cabeçalhos da requisição grandes demais' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'Extensões de chunk grandes demais' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'A requisição não chegou inteira a tempo' },
};
const MALFORMED = { status: 400, message: 'Requisição HTTP malformada' };

function clientErrorResponse(code: string | undefined, requestId: string): string {
  const { status, message } = PARSER_ERRORS[code ?? ''] ?? MALFORMED;
  const body = JSON.stringify(errorBody(requestId, new ApiError(status, 'invalid_request', message)));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    `X-Service-Version: ${SERVICE_VERSION}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Whether an answer to the socket's current request has begun (then nothing more may be written, as Node's own handler does). */
const answering = (socket: Duplex) => (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;

/** Past `max` open connections from one address, a new one is closed at once. */
function capConnectionsPerIp(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress;
    const count = ip === undefined ? Infinity : (open.get(ip) ?? 0) + 1;
    if (count > max) {
      connectionsRefused.inc();
      socket.destroy();
      return;
    }
    open.set(ip!, count);
    socket.once('close', () => {
      const left = open.get(ip!)! - 1;
      if (left === 0) open.delete(ip!);
      else open.set(ip!, left);
    });
  });
}

/**
 * A connection that sends no request within `idleMs` is closed (Node's timeout handler destroys a
 * socket nobody else watches); from its first request on, Node's own timeouts hold it (headers,
 * request, keep-alive), and a request being answered is not cut short.
 */
function closeSilentConnections(server: Server, idleMs: number): void {
  // The socket the HTTP parser reads: after the handshake for TLS (whose handshakeTimeout bounds that).
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => socket.setTimeout(idleMs));
  server.on('request', (req: IncomingMessage) => req.socket.setTimeout(0));
}

export type ListenerOptions = ServerOptions & Pick<TlsOptions, 'handshakeTimeout'>;

/** The server `create` builds with the bounds' options, bounded and answering parser errors in the envelope. */
export function boundedServer(create: (options: ListenerOptions) => Server, bounds: ListenerBounds, log: Logger): Server {
  const server = create({
    headersTimeout: bounds.headersTimeoutMs,
    requestTimeout: bounds.requestTimeoutMs,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    // How often Node looks for requests past those timeouts (its default, 30 s, lets one run 30 s late).
    connectionsCheckingInterval: Math.min(1000, bounds.headersTimeoutMs),
    handshakeTimeout: bounds.idleTimeoutMs,
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // Only HTTP's own refusals get an HTTP answer: a socket error or a failed TLS handshake has no one to read it.
    const http = err.code !== undefined && (err.code.startsWith('HPE_') || err.code in PARSER_ERRORS);
    if (!http || !socket.writable || answering(socket)) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    socket.end(clientErrorResponse(err.code, requestId));
    log.info({ requestId, reason: err.code ?? err.message }, 'client error');
  });
  capConnectionsPerIp(server, bounds.maxConnectionsPerIp);
  closeSilentConnections(server, bounds.idleTimeoutMs);
  return server;
}

export function createHttpServer(app: Koa, log: Logger, bounds: ListenerBounds): Server {
  return boundedServer((options) => createServer(options, app.callback()), bounds, log);
}
