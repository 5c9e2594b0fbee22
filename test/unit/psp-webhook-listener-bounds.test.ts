// The PSP webhook listener in its mTLS form (an HTTPS server of its own, not createHttpServer) has the
// bounds of every listener: a connection that never even starts its TLS handshake is closed, and one
// client address cannot hold more than HTTP_MAX_CONNECTIONS_PER_IP connections.
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ListenerBounds } from '../../src/config/config.js';
import type { Deps } from '../../src/runtime/deps.js';
import { createLogger } from '../../src/runtime/log.js';
import { createPspWebhookServer } from '../../src/psp-webhooks/server.js';
import { openConnection, type RawConnection } from '../helpers/raw-connection.js';
import { createTestCa, issueCertificate } from '../helpers/tls-certs.js';

const CAP = 2;
const listener: ListenerBounds = {
  idleTimeoutMs: 1000,
  headersTimeoutMs: 1000,
  requestTimeoutMs: 1000,
  keepAliveTimeoutMs: 1000,
  maxConnectionsPerIp: CAP,
};
let server: Server;
let url: string;

beforeAll(async () => {
  const ca = createTestCa('listener bounds test CA');
  const cert = issueCertificate(ca, 'pix-engine-webhooks.localhost', 'server');
  const dir = mkdtempSync(join(tmpdir(), 'psp-listener-'));
  const write = (name: string, pem: string) => {
    writeFileSync(join(dir, name), pem);
    return join(dir, name);
  };
  const pspWebhookTls = {
    certFile: write('cert.pem', cert.certPem),
    keyFile: write('key.pem', cert.keyPem),
    clientCaFile: write('ca.pem', ca.certPem),
  };
  const deps = {
    config: { pixRoutes: [], bodyLimitBytes: 64 * 1024, pspWebhookTls, listener },
    log: createLogger('silent'),
  } as unknown as Deps;
  server = createPspWebhookServer(deps, () => {});
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('refuses a connection past the cap at once, and closes the ones that never start their handshake', async () => {
  const held: RawConnection[] = [];
  for (let i = 0; i < CAP; i++) held.push(await openConnection(url, '127.0.0.3'));
  const extra = await openConnection(url, '127.0.0.3');
  await extra.closed;
  expect(held.map((c) => c.isClosed())).toEqual([false, false]);
  await Promise.all(held.map((c) => c.closed));
  for (const connection of [extra, ...held]) expect(connection.received()).toBe('');
});
