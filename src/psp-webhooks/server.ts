// The PSP webhook listener's server on PSP_WEBHOOK_PORT / PSP_WEBHOOK_HOST. With the three
// PSP_WEBHOOK_TLS_* files it is HTTPS and refuses, during the handshake, any caller without a client
// certificate signed by PSP_WEBHOOK_CLIENT_CA_FILE (the standard's mTLS); otherwise plain HTTP, for TLS
// terminated by a proxy that checks the PSP's certificate.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { ConfigError } from '../config/config.js';
import type { Deps } from '../runtime/deps.js';
import { boundedServer, createHttpServer } from '../http/server.js';
import { createPspWebhookApp } from './app.js';

function pem(path: string, variable: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new ConfigError(`${variable}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** `hintsStored`: see createPspWebhookApp. */
export function createPspWebhookServer(deps: Deps, hintsStored: () => void): Server {
  const app = createPspWebhookApp(deps, hintsStored);
  const tls = deps.config.pspWebhookTls;
  if (!tls) return createHttpServer(app, deps.log, deps.config.listener);
  const server = boundedServer(
    (options) =>
      createHttpsServer(
        {
          ...options,
          cert: pem(tls.certFile, 'PSP_WEBHOOK_TLS_CERT_FILE'),
          key: pem(tls.keyFile, 'PSP_WEBHOOK_TLS_KEY_FILE'),
          ca: pem(tls.clientCaFile, 'PSP_WEBHOOK_CLIENT_CA_FILE'),
          requestCert: true,
          rejectUnauthorized: true,
        },
        app.callback(),
      ),
    deps.config.listener,
    deps.log,
  );
  server.on('tlsClientError', (err) =>
    deps.log.info({ reason: (err as NodeJS.ErrnoException).code ?? err.message }, 'PSP webhook caller refused at the TLS handshake'),
  );
  return server;
}
