// PIX_ROUTES_FILE: a good file becomes the routes (paths relative to the file, defaults filled), and
// every bad one stops the start with a message naming the file or the field; secrets never print.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nTOP-SECRET-KEY\n-----END PRIVATE KEY-----\n';
const CA = '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n';
let dir: string;

const route = (overrides: Record<string, unknown> = {}) => ({
  type: 'bcb-api-pix',
  baseUrl: 'https://pix.psp.example/v2/',
  tokenUrl: 'https://pix.psp.example/oauth/token',
  clientId: 'client-id',
  clientSecret: 'client-secret-value',
  tls: { certFile: 'client.pem', keyFile: 'client.key', caFile: 'certs/psp-ca.pem' },
  pixKey: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
  ...overrides,
});

function routesFile(content: unknown, name = 'routes.json'): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const load = (path: string) => loadConfig({ PIX_ROUTES_FILE: path }).pixRoutes;
const refusal = (content: unknown): string => {
  try {
    load(routesFile(content));
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the routes file was accepted');
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'routes-file-'));
  writeFileSync(join(dir, 'client.pem'), CERT);
  writeFileSync(join(dir, 'client.key'), KEY);
  writeFileSync(join(dir, 'not-pem.txt'), 'hello');
  mkdirSync(join(dir, 'certs'));
  writeFileSync(join(dir, 'certs', 'psp-ca.pem'), CA);
});

describe('PIX_ROUTES_FILE', () => {
  it('is optional: without it only the simulator exists', () => {
    expect(loadConfig({}).pixRoutes).toEqual([]);
  });

  it('reads the routes: files relative to the routes file, defaults filled, trailing slashes dropped', () => {
    const [psp, other] = load(
      routesFile({
        routes: {
          psp: route({ webhookUrl: 'https://engine.example/psp-webhooks/psp', send: { type: 'efi', baseUrl: 'https://pix.psp.example' } }),
          other: route({ tokenBody: 'json', merchantCity: 'CURITIBA', tls: { certFile: 'client.pem', keyFile: join(dir, 'client.key') } }),
        },
      }),
    );
    expect(psp).toMatchObject({
      name: 'psp',
      type: 'bcb-api-pix',
      baseUrl: 'https://pix.psp.example/v2',
      tokenUrl: 'https://pix.psp.example/oauth/token',
      clientId: 'client-id',
      tokenBody: 'form',
      tls: { cert: CERT, ca: CA },
      pixKey: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
      webhookUrl: 'https://engine.example/psp-webhooks/psp',
      merchantCity: 'SAO PAULO',
      send: { type: 'efi', baseUrl: 'https://pix.psp.example' },
    });
    expect(psp!.clientSecret.reveal()).toBe('client-secret-value');
    expect(psp!.tls.key.reveal()).toBe(KEY);
    expect(other).toMatchObject({
      name: 'other',
      tokenBody: 'json',
      merchantCity: 'CURITIBA',
      webhookUrl: null,
      send: null,
      tls: { ca: null },
    });
  });

  it('never prints a secret: JSON, inspect and string conversion show a placeholder', () => {
    const routes = load(routesFile({ routes: { psp: route() } }));
    for (const shown of [JSON.stringify(routes), inspect(routes, { depth: 10 }), `${routes[0]!.clientSecret}`]) {
      expect(shown).not.toContain('client-secret-value');
      expect(shown).not.toContain('TOP-SECRET-KEY');
    }
  });

  it('names the file when it cannot be read or parsed', () => {
    const missing = join(dir, 'missing.json');
    expect(() => load(missing)).toThrow(ConfigError);
    expect(() => load(missing)).toThrow(`PIX_ROUTES_FILE: cannot read ${missing} (ENOENT)`);
    expect(() => load(dir)).toThrow(`cannot read ${dir} (EISDIR)`);
    const broken = routesFile('{"routes": {', 'broken.json');
    expect(() => load(broken)).toThrow(`PIX_ROUTES_FILE: ${broken} is not JSON`);
  });

  it('names the missing or wrong field', () => {
    const { tokenUrl: _t, ...withoutTokenUrl } = route();
    const cases: Array<[unknown, string]> = [
      [[], 'the file must hold a JSON object with `routes`'],
      [{}, 'routes must be an object of routes by name'],
      [{ routes: [] }, 'routes must be an object of routes by name'],
      [{ routes: { psp: route() }, extra: 1 }, 'extra is not a known field'],
      [{ routes: { psp: withoutTokenUrl } }, 'routes.psp.tokenUrl is required'],
      [{ routes: { psp: route({ tokenUrl: 'http://pix.psp.example/oauth/token' }) } }, 'routes.psp.tokenUrl must be an https URL'],
      [{ routes: { psp: route({ baseUrl: 'not a url' }) } }, 'routes.psp.baseUrl must be an https URL'],
      [{ routes: { psp: route({ type: 'other' }) } }, 'routes.psp.type must be "bcb-api-pix"'],
      [{ routes: { psp: route({ clientSecret: '' }) } }, 'routes.psp.clientSecret is required'],
      [{ routes: { psp: route({ clientId: 42 }) } }, 'routes.psp.clientId is required'],
      [{ routes: { psp: route({ pixKey: undefined }) } }, 'routes.psp.pixKey is required'],
      [{ routes: { psp: route({ tokenBody: 'xml' }) } }, 'routes.psp.tokenBody must be "form" or "json"'],
      [{ routes: { psp: route({ tls: undefined }) } }, 'routes.psp.tls must be an object with certFile and keyFile'],
      [{ routes: { psp: route({ tls: { certFile: 'client.pem' } }) } }, 'routes.psp.tls.keyFile is required'],
      [
        { routes: { psp: route({ tls: { certFile: 'nope.pem', keyFile: 'client.key' } }) } },
        `routes.psp.tls.certFile: cannot read ${join(dir, 'nope.pem')} (ENOENT)`,
      ],
      [{ routes: { psp: route({ tls: { certFile: 'not-pem.txt', keyFile: 'client.key' } }) } }, 'routes.psp.tls.certFile: '],
      [
        { routes: { psp: route({ tls: { certFile: 'client.pem', keyFile: 'client.key', cafile: 'x' } }) } },
        'routes.psp.tls.cafile is not a known field',
      ],
      [{ routes: { psp: route({ webhookUrl: 'ftp://engine.example/hook' }) } }, 'routes.psp.webhookUrl must be an https or http URL'],
      [{ routes: { psp: route({ merchantCity: 'SAO JOSE DOS CAMPOS' }) } }, 'routes.psp.merchantCity must have at most 15 characters'],
      [{ routes: { psp: route({ send: { type: 'pix', baseUrl: 'https://x.example' } }) } }, 'routes.psp.send.type must be "efi"'],
      [{ routes: { psp: route({ send: { type: 'efi' } }) } }, 'routes.psp.send.baseUrl is required'],
      [{ routes: { psp: route({ send: 'efi' }) } }, 'routes.psp.send must be an object'],
      [{ routes: { psp: route({ clientSecrett: 'x' }) } }, 'routes.psp.clientSecrett is not a known field'],
      [{ routes: { psp: 'x' } }, 'routes.psp must be an object'],
      [{ routes: { simulator: route() } }, 'routes.simulator: simulator is the built-in route'],
      [{ routes: { 'bad/name': route() } }, 'routes.bad/name: a route name is'],
    ];
    for (const [content, message] of cases) expect(refusal(content)).toContain(message);
  });

  it('reports the first fault in reading order, the whole message naming the file: a misspelt field before the one it misses, route by route', () => {
    const path = join(dir, 'routes.json');
    const { clientSecret: _s, ...withoutSecret } = route();
    expect(refusal({ routes: { psp: { ...withoutSecret, clientSecrett: 'x' } } })).toBe(
      `PIX_ROUTES_FILE (${path}): routes.psp.clientSecrett is not a known field (known: type, baseUrl, tokenUrl, clientId, clientSecret, tokenBody, tls, pixKey, webhookUrl, webhookClientSubject, merchantCity, send, receiverAccount)`,
    );
    expect(refusal({ routes: { psp: route({ tokenUrl: undefined, type: 'other' }) } })).toBe(
      `PIX_ROUTES_FILE (${path}): routes.psp.type must be "bcb-api-pix"`,
    );
    expect(refusal({ routes: { 'bad name': route({ type: 'other' }) } })).toBe(
      `PIX_ROUTES_FILE (${path}): routes.bad name: a route name is 1 to 63 letters, digits, '_' or '-', starting with a letter or digit`,
    );
    expect(refusal({ routes: { a: route({ pixKey: '' }), b: route({ type: 'other' }) } })).toBe(
      `PIX_ROUTES_FILE (${path}): routes.a.pixKey is required (a non-empty string)`,
    );
    expect(refusal({ routes: { a: route(), simulator: route() } })).toBe(
      `PIX_ROUTES_FILE (${path}): routes.simulator: simulator is the built-in route; give this one another name`,
    );
  });

  it('reads webhookClientSubject as the attributes of a certificate subject, each once', () => {
    const [psp] = load(routesFile({ routes: { psp: route({ webhookClientSubject: 'CN=webhooks.psp.example, O=PSP S.A.' }) } }));
    expect(psp!.webhookClientSubject).toEqual({ CN: 'webhooks.psp.example', O: 'PSP S.A.' });
    for (const subject of ['CN=a, CN=b', 'webhooks.psp.example', 'CN=']) {
      expect(refusal({ routes: { psp: route({ webhookClientSubject: subject }) } })).toContain(
        'routes.psp.webhookClientSubject must list a certificate\'s subject attributes, each once, like "CN=webhooks.psp.example, O=PSP S.A."',
      );
    }
  });

  it('takes null as the default tokenBody, and refuses null where a text is required', () => {
    expect(load(routesFile({ routes: { psp: route({ tokenBody: null }) } }))[0]!.tokenBody).toBe('form');
    expect(refusal({ routes: { psp: route({ merchantCity: null }) } })).toContain(
      'routes.psp.merchantCity is required (a non-empty string)',
    );
    expect(refusal({ routes: { psp: route({ webhookUrl: null }) } })).toContain('routes.psp.webhookUrl is required (a non-empty string)');
    expect(refusal({ routes: { psp: route({ send: null }) } })).toContain('routes.psp.send must be an object with type and baseUrl');
  });

  it('warns, naming the file and its mode, when the routes file or a key file is readable by other users', () => {
    const path = routesFile({ routes: { psp: route() } }, 'shared.json');
    chmodSync(path, 0o644);
    chmodSync(join(dir, 'client.key'), 0o640);
    const { warnings } = loadConfig({ PIX_ROUTES_FILE: path });
    expect(warnings).toEqual(
      expect.arrayContaining([
        `PIX_ROUTES_FILE (it holds clientSecret): ${path} has mode 0644, readable by other users of this machine; make it 0600 (chmod 600)`,
        expect.stringMatching(/^routes\.psp\.tls\.keyFile: .*client\.key has mode 0640/),
      ]),
    );
    expect(warnings.join('\n')).not.toContain('client-secret-value');
    chmodSync(path, 0o600);
    chmodSync(join(dir, 'client.key'), 0o600);
    expect(loadConfig({ PIX_ROUTES_FILE: path }).warnings.filter((w) => /mode 0/.test(w))).toEqual([]);
  });

  it('never echoes a secret in a refusal', () => {
    expect(refusal({ routes: { psp: route({ clientSecret: 'client-secret-value', baseUrl: 'ftp://x' }) } })).not.toContain(
      'client-secret-value',
    );
  });
});

describe('PSP webhook listener settings', () => {
  it('has the documented defaults and takes the three TLS files together', () => {
    expect(loadConfig({})).toMatchObject({ pspWebhookPort: 3002, pspWebhookHost: '0.0.0.0', pspWebhookTls: null });
    const tls = { PSP_WEBHOOK_TLS_CERT_FILE: 'a.pem', PSP_WEBHOOK_TLS_KEY_FILE: 'a.key', PSP_WEBHOOK_CLIENT_CA_FILE: 'ca.pem' };
    expect(loadConfig({ ...tls, PSP_WEBHOOK_PORT: '4000', PSP_WEBHOOK_HOST: '127.0.0.1' })).toMatchObject({
      pspWebhookPort: 4000,
      pspWebhookHost: '127.0.0.1',
      pspWebhookTls: { certFile: 'a.pem', keyFile: 'a.key', clientCaFile: 'ca.pem' },
    });
    expect(() => loadConfig({ PSP_WEBHOOK_TLS_CERT_FILE: 'a.pem' })).toThrow(/PSP_WEBHOOK_CLIENT_CA_FILE/);
    expect(() => loadConfig({ PSP_WEBHOOK_PORT: 'x' })).toThrow(/PSP_WEBHOOK_PORT/);
  });

  it('takes plain HTTP from other machines only when asked for: without TLS files it binds loopback and says how to open it; a host named explicitly is taken with a warning', () => {
    const routes = { PIX_ROUTES_FILE: routesFile({ routes: { psp: route() } }, 'listener.json') };
    const loopback = loadConfig(routes);
    expect(loopback.pspWebhookHost).toBe('127.0.0.1');
    expect(loopback.warnings).toContainEqual(
      expect.stringMatching(/PSP webhook listener on 127\.0\.0\.1 only.*PSP_WEBHOOK_PLAIN_HTTP=true/),
    );
    expect(loadConfig({ ...routes, PSP_WEBHOOK_HOST: '127.0.0.2' }).pspWebhookHost).toBe('127.0.0.2');
    const listenerWarnings = (config: { warnings: string[] }) => config.warnings.filter((warning) => warning.startsWith('PSP'));
    expect(listenerWarnings(loadConfig({ ...routes, PSP_WEBHOOK_HOST: '127.0.0.2' }))).toEqual([]);
    // A host named explicitly is a choice DESIGN.md documents (a proxy terminates TLS): taken, with a warning.
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
      const open = loadConfig({ ...routes, PSP_WEBHOOK_HOST: host });
      expect(open.pspWebhookHost).toBe(host);
      expect(open.warnings).toContainEqual(expect.stringMatching(/PSP_WEBHOOK_HOST .* plain HTTP .*PSP_WEBHOOK_PLAIN_HTTP=true/));
    }
    const asked = loadConfig({ ...routes, PSP_WEBHOOK_HOST: '0.0.0.0', PSP_WEBHOOK_PLAIN_HTTP: 'true' });
    expect(asked.pspWebhookHost).toBe('0.0.0.0');
    expect(listenerWarnings(asked)).toEqual([]);
    expect(loadConfig({ ...routes, PSP_WEBHOOK_PLAIN_HTTP: 'true' }).pspWebhookHost).toBe('0.0.0.0');
    const tls = { PSP_WEBHOOK_TLS_CERT_FILE: 'a.pem', PSP_WEBHOOK_TLS_KEY_FILE: 'a.key', PSP_WEBHOOK_CLIENT_CA_FILE: 'ca.pem' };
    expect(loadConfig({ ...routes, ...tls }).pspWebhookHost).toBe('0.0.0.0');
    expect(() => loadConfig({ ...routes, PSP_WEBHOOK_PLAIN_HTTP: 'yes' })).toThrow(/PSP_WEBHOOK_PLAIN_HTTP/);
  });
});
