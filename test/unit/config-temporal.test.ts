// From the environment to the Temporal connection: TEMPORAL_ADDRESS decides embedded or not, and the
// SDK's envconfig variables and config file profile give a remote server its TLS, API key and metadata.
// No network: only the options handed to Connection.connect / NativeConnection.connect are checked.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_ADMIN_URL, loadCliConfig, loadConfig } from '../../src/config/config.js';

const dir = mkdtempSync(join(tmpdir(), 'pix-temporal-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const CERT = file('client.pem', '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n');
const KEY = file('client.key', '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n');
const CA = file('ca.pem', '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n');
const CONFIG_FILE = file(
  'temporal.toml',
  `[profile.default]
namespace = "from-default-profile"

[profile.cloud]
address = "ignored.tmprl.cloud:7233"
namespace = "payments.a1b2c"
api_key = "key-from-file"

[profile.cloud.tls]
server_name = "payments.a1b2c.tmprl.cloud"

[profile.cloud.grpc_meta]
x-tenant = "acme"
`,
);
const bytes = (path: string) => new Uint8Array(readFileSync(path));

describe('Temporal connection from the environment', () => {
  it('without TEMPORAL_ADDRESS is the embedded dev server: no profile, TLS or key applies', () => {
    const config = loadConfig({ TEMPORAL_CONFIG_FILE: CONFIG_FILE, TEMPORAL_PROFILE: 'cloud', TEMPORAL_API_KEY: 'secret' });
    expect(config.temporalServer).toBeNull();
    expect(config.temporalNamespace).toBe('default');
    expect(loadConfig({ TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: 'pix' })).toMatchObject({
      temporalServer: null,
      temporalNamespace: 'pix',
    });
  });

  it('TEMPORAL_ADDRESS alone is a plain connection to that address in namespace default', () => {
    const config = loadConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233' });
    expect(config.temporalServer).toEqual({ address: 'temporal.internal:7233' });
    expect(config.temporalNamespace).toBe('default');
  });

  it('an API key turns TLS on (Temporal Cloud)', () => {
    const config = loadConfig({
      TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233',
      TEMPORAL_NAMESPACE: 'payments.a1b2c',
      TEMPORAL_API_KEY: 'secret',
    });
    expect(config.temporalServer).toEqual({ address: 'eu-west-1.aws.api.temporal.io:7233', apiKey: 'secret', tls: true });
    expect(config.temporalNamespace).toBe('payments.a1b2c');
  });

  it('mTLS: client certificate and key, server CA and server name from files', () => {
    const config = loadConfig({
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      TEMPORAL_TLS_CLIENT_CERT_PATH: CERT,
      TEMPORAL_TLS_CLIENT_KEY_PATH: KEY,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: CA,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(config.temporalServer).toEqual({
      address: 'temporal.internal:7233',
      tls: {
        serverNameOverride: 'temporal.internal',
        serverRootCACertificate: bytes(CA),
        clientCertPair: { crt: bytes(CERT), key: bytes(KEY) },
      },
    });
  });

  it('certificates can be given inline (_DATA), and TEMPORAL_TLS=true alone asks for TLS with the system CAs', () => {
    const inline = loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS_CLIENT_CERT_DATA: 'crt', TEMPORAL_TLS_CLIENT_KEY_DATA: 'key' });
    expect(inline.temporalServer?.tls).toEqual({
      clientCertPair: { crt: new TextEncoder().encode('crt'), key: new TextEncoder().encode('key') },
    });
    expect(loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS: 'true' }).temporalServer?.tls).toEqual({});
    expect(loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'k' }).temporalServer).toEqual({
      address: 'a:7233',
      apiKey: 'k',
      tls: false,
    });
  });

  it('reads the profile of the config file; TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE win over it', () => {
    const env = { TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233', TEMPORAL_CONFIG_FILE: CONFIG_FILE, TEMPORAL_PROFILE: 'cloud' };
    const config = loadConfig(env);
    expect(config.temporalServer).toEqual({
      address: 'eu-west-1.aws.api.temporal.io:7233',
      apiKey: 'key-from-file',
      tls: { serverNameOverride: 'payments.a1b2c.tmprl.cloud' },
      metadata: { 'x-tenant': 'acme' },
    });
    expect(config.temporalNamespace).toBe('payments.a1b2c');
    expect(loadConfig({ ...env, TEMPORAL_NAMESPACE: 'other' }).temporalNamespace).toBe('other');
    expect(loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_CONFIG_FILE: CONFIG_FILE }).temporalNamespace).toBe('from-default-profile');
    expect(loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_CONFIG_FILE: join(dir, 'absent.toml') }).temporalServer).toEqual({
      address: 'a:7233',
    });
  });

  it('gRPC metadata from TEMPORAL_GRPC_META_<HEADER>', () => {
    expect(loadConfig({ TEMPORAL_ADDRESS: 'a:7233', TEMPORAL_GRPC_META_X_TENANT: 'acme' }).temporalServer?.metadata).toEqual({
      'x-tenant': 'acme',
    });
  });

  it('refuses what it cannot use, as a configuration error naming the setting', () => {
    const refused = (env: Record<string, string>, message: RegExp) => {
      expect(() => loadConfig({ TEMPORAL_ADDRESS: 'a:7233', ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ TEMPORAL_ADDRESS: 'a:7233', ...env })).toThrow(message);
    };
    refused({ TEMPORAL_CONFIG_FILE: CONFIG_FILE, TEMPORAL_PROFILE: 'prod' }, /Profile 'prod' not found/);
    refused({ TEMPORAL_TLS_CLIENT_CERT_PATH: CERT }, /TEMPORAL_TLS_CLIENT_CERT_\* and TEMPORAL_TLS_CLIENT_KEY_\*/);
    refused({ TEMPORAL_TLS_CLIENT_CERT_PATH: join(dir, 'missing.pem'), TEMPORAL_TLS_CLIENT_KEY_PATH: KEY }, /missing\.pem/);
    refused(
      { TEMPORAL_TLS_CLIENT_CERT_PATH: CERT, TEMPORAL_TLS_CLIENT_CERT_DATA: 'x', TEMPORAL_TLS_CLIENT_KEY_PATH: KEY },
      /client_cert_path and client_cert_data/,
    );
    refused({ TEMPORAL_TLS: 'yes' }, /TEMPORAL_TLS must be true or false/);
    // Without TEMPORAL_ADDRESS no connection reads TEMPORAL_TLS: it is not checked either.
    expect(loadConfig({ TEMPORAL_TLS: 'yes' }).temporalServer).toBeNull();
    refused({ TEMPORAL_CONFIG_FILE: file('broken.toml', '[profile.default\n') }, /Temporal connection settings/);
  });
});

describe('the rest of the Temporal settings', () => {
  it('dev port, CLI path, PATH and the prebuilt workflow bundle', () => {
    const config = loadConfig({
      TEMPORAL_DEV_PORT: '17233',
      TEMPORAL_CLI_PATH: '/opt/temporal',
      PATH: '/usr/bin:/bin',
      TEMPORAL_WORKFLOW_BUNDLE: '/tmp/workflows.js',
    });
    expect(config).toMatchObject({
      temporalDevPort: 17233,
      temporalCliPath: '/opt/temporal',
      searchPath: '/usr/bin:/bin',
      temporalWorkflowBundle: '/tmp/workflows.js',
    });
  });

  it("the worker's workflow cache size: TEMPORAL_MAX_CACHED_WORKFLOWS, 0 turning the cache off", () => {
    expect(loadConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: '250' }).temporalMaxCachedWorkflows).toBe(250);
    expect(loadConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: '0' }).temporalMaxCachedWorkflows).toBe(0);
    expect(() => loadConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: '-1' })).toThrow(/TEMPORAL_MAX_CACHED_WORKFLOWS/);
    expect(() => loadConfig({ TEMPORAL_MAX_CACHED_WORKFLOWS: 'all' })).toThrow(ConfigError);
  });
});

describe("pixctl's settings", () => {
  it('default admin URL; PIX_ADMIN_URL as the server root or its /admin; no token when unset or empty; DATA_DIR for what it keeps', () => {
    expect(loadCliConfig({})).toEqual({ adminUrl: DEFAULT_ADMIN_URL, adminToken: null, dataDir: '.data' });
    expect(loadCliConfig({ PIX_ADMIN_URL: 'http://ops:3001/admin/', ADMIN_TOKEN: 't', DATA_DIR: '/var/pix' })).toEqual({
      adminUrl: 'http://ops:3001',
      adminToken: 't',
      dataDir: '/var/pix',
    });
    expect(loadCliConfig({ PIX_ADMIN_URL: 'http://ops:3001', ADMIN_TOKEN: '' })).toEqual({
      adminUrl: 'http://ops:3001',
      adminToken: null,
      dataDir: '.data',
    });
  });
});
