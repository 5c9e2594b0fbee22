// The HTTP server of an app (public or admin). Requests Node's parser refuses before any middleware
// runs (headers over the size limit, malformed HTTP) get the service's envelope and headers too,
// instead of Node's bare status line.
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from '../log.js';
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

export function createHttpServer(app: Koa, log: Logger): Server {
  const server = createServer(app.callback());
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    socket.end(clientErrorResponse(err.code, requestId));
    log.info({ requestId, reason: err.code ?? err.message }, 'client error');
  });
  return server;
}
