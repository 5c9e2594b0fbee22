// The fake PSP's certificates, in two trust domains as in production: the PSP's CA signs the PSP's
// server certificate and the client certificate it presents when it calls the engine's webhook
// listener; the engine's CA signs the engine's client certificate and its listener's server
// certificate. The files the engine reads are written to a temp dir.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestCa, issueCertificate, type IssuedCertificate } from '../tls-certs.js';

export interface EngineCertFiles {
  clientCertFile: string;
  clientKeyFile: string;
  pspCaFile: string;
  listenerCertFile: string;
  listenerKeyFile: string;
  listenerClientCaFile: string;
}

export interface FakePspPki {
  dir: string;
  files: EngineCertFiles;
  /** What the PSP's HTTPS server presents, and the CA it trusts for callers' client certificates. */
  pspServer: IssuedCertificate;
  engineCaPem: string;
  /** What the PSP presents when it POSTs a webhook. */
  pspWebhookClient: IssuedCertificate;
}

export function createFakePspPki(): FakePspPki {
  const pspCa = createTestCa('Fake PSP test CA');
  const engineCa = createTestCa('Engine test CA');
  const pspServer = issueCertificate(pspCa, 'fake-psp.localhost', 'server');
  const pspWebhookClient = issueCertificate(pspCa, 'fake-psp-webhooks', 'client');
  const engineClient = issueCertificate(engineCa, 'pix-engine', 'client');
  const engineListener = issueCertificate(engineCa, 'pix-engine-webhooks.localhost', 'server');

  const dir = mkdtempSync(join(tmpdir(), 'fake-psp-'));
  const write = (name: string, pem: string): string => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  };
  return {
    dir,
    files: {
      clientCertFile: write('engine-client.pem', engineClient.certPem),
      clientKeyFile: write('engine-client.key', engineClient.keyPem),
      pspCaFile: write('psp-ca.pem', pspCa.certPem),
      listenerCertFile: write('engine-listener.pem', engineListener.certPem),
      listenerKeyFile: write('engine-listener.key', engineListener.keyPem),
      listenerClientCaFile: write('psp-webhook-ca.pem', pspCa.certPem),
    },
    pspServer,
    engineCaPem: engineCa.certPem,
    pspWebhookClient,
  };
}
