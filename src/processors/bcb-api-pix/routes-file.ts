// The routes file (PIX_ROUTES_FILE): the real Pix routes an account can pick besides `simulator`,
// each a PSP that speaks the Central Bank's API Pix. Read once at start: a file that cannot be read
// or parsed names the file, a missing or wrong field names the field (`routes.psp.tokenUrl`), so the
// start stops with a message an operator can act on. The certificate files are read here too, for
// the same reason. Secrets (client secret, private key) are kept as Secret: they never print. The routes
// file and the key files hold secrets: one that other users of the machine can read is reported (`warn`).
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Secret } from './secret.js';

export const BCB_API_PIX = 'bcb-api-pix';
const DEFAULT_MERCHANT_CITY = 'SAO PAULO';
/** A route's name travels in URLs (the PSP webhook path) and in the accounts' `route`. */
const ROUTE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;
const RESERVED_NAMES = ['simulator'];

export interface BcbApiPixRouteConfig {
  name: string;
  type: typeof BCB_API_PIX;
  /** The receiving API's root, without a trailing slash (e.g. https://pix.psp.example/v2). */
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: Secret;
  /** How the token request carries grant_type: RFC 6749's form (default) or JSON (Efí). */
  tokenBody: 'form' | 'json';
  /** PEM contents: the client certificate and key presented on every call, and an extra CA trusted for the PSP. */
  tls: { cert: string; key: Secret; ca: string | null };
  pixKey: string;
  webhookUrl: string | null;
  /**
   * What the subject of the client certificate a webhook for this route comes with must hold (`CN=…, O=…`
   * in the file), checked when the listener does the mTLS itself; null: any certificate its CA signed.
   */
  webhookClientSubject: Record<string, string> | null;
  /** City of the BR Code built when the PSP's answer carries no pixCopiaECola. */
  merchantCity: string;
  send: { type: 'efi'; baseUrl: string } | null;
}

export class RoutesFileError extends Error {}

type Json = Record<string, unknown>;

const FIELDS = ['type', 'baseUrl', 'tokenUrl', 'clientId', 'clientSecret', 'tokenBody', 'tls', 'pixKey', 'webhookUrl', 'webhookClientSubject', 'merchantCity', 'send'];
const TLS_FIELDS = ['certFile', 'keyFile', 'caFile'];
const SEND_FIELDS = ['type', 'baseUrl'];

/** Reads and checks the routes file at `path`; `warn` is told of each secret file readable by other users. */
export function loadRoutesFile(path: string, warn: (message: string) => void = () => {}): BcbApiPixRouteConfig[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RoutesFileError(`PIX_ROUTES_FILE: cannot read ${path} (${errorCode(err)})`);
  }
  warnIfShared(path, 'PIX_ROUTES_FILE (it holds clientSecret)', warn);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new RoutesFileError(`PIX_ROUTES_FILE: ${path} is not JSON (${(err as Error).message})`);
  }
  return parseRoutes(parsed, dirname(resolve(path)), path, warn);
}

/** Group or other users may read it (mode 0640, 0644…): not refused, since a mounted secret can be 0444 by design. */
function warnIfShared(file: string, what: string, warn: (message: string) => void): void {
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) warn(`${what}: ${file} has mode 0${mode.toString(8)}, readable by other users of this machine; make it 0600 (chmod 600)`);
}

function parseRoutes(parsed: unknown, baseDir: string, path: string, warn: (message: string) => void): BcbApiPixRouteConfig[] {
  const fail = (message: string): never => {
    throw new RoutesFileError(`PIX_ROUTES_FILE (${path}): ${message}`);
  };
  if (!isObject(parsed)) return fail('the file must hold a JSON object with `routes`');
  onlyKnown(parsed, ['routes'], '', fail);
  const routes = parsed.routes;
  if (!isObject(routes)) return fail('routes must be an object of routes by name');
  return Object.entries(routes).map(([name, value]) => {
    const at = `routes.${name}`;
    if (!ROUTE_NAME.test(name)) fail(`${at}: a route name is 1 to 63 letters, digits, '_' or '-', starting with a letter or digit`);
    if (RESERVED_NAMES.includes(name)) fail(`${at}: ${name} is the built-in route; give this one another name`);
    return parseRoute(name, value, { at, baseDir, fail, warn });
  });
}

interface Place {
  at: string;
  baseDir: string;
  fail: (message: string) => never;
  warn: (message: string) => void;
}

function parseRoute(name: string, value: unknown, place: Place): BcbApiPixRouteConfig {
  const { at, fail } = place;
  if (!isObject(value)) return fail(`${at} must be an object`);
  onlyKnown(value, FIELDS, at, fail);
  if (value.type !== BCB_API_PIX) fail(`${at}.type must be "${BCB_API_PIX}"`);
  const tokenBody = value.tokenBody ?? 'form';
  if (tokenBody !== 'form' && tokenBody !== 'json') fail(`${at}.tokenBody must be "form" or "json"`);
  const merchantCity = optionalText(value, 'merchantCity', place) ?? DEFAULT_MERCHANT_CITY;
  if (merchantCity.length > 15) fail(`${at}.merchantCity must have at most 15 characters (the BR Code's limit)`);
  return {
    name,
    type: BCB_API_PIX,
    baseUrl: url(value, 'baseUrl', place, ['https:']),
    tokenUrl: url(value, 'tokenUrl', place, ['https:']),
    clientId: text(value, 'clientId', place),
    clientSecret: new Secret(text(value, 'clientSecret', place)),
    tokenBody: tokenBody as 'form' | 'json',
    tls: tlsOf(value.tls, { ...place, at: `${at}.tls` }),
    pixKey: text(value, 'pixKey', place),
    webhookUrl: value.webhookUrl === undefined ? null : url(value, 'webhookUrl', place, ['https:', 'http:']),
    webhookClientSubject: subject(value, 'webhookClientSubject', place),
    merchantCity,
    send: sendOf(value.send, { ...place, at: `${at}.send` }),
  };
}

function tlsOf(value: unknown, place: Place): BcbApiPixRouteConfig['tls'] {
  if (!isObject(value)) return place.fail(`${place.at} must be an object with certFile and keyFile`);
  onlyKnown(value, TLS_FIELDS, place.at, place.fail);
  const caFile = optionalText(value, 'caFile', place);
  return {
    cert: pem(value, 'certFile', place),
    key: new Secret(pem(value, 'keyFile', place)),
    ca: caFile === null ? null : pem(value, 'caFile', place),
  };
}

function sendOf(value: unknown, place: Place): BcbApiPixRouteConfig['send'] {
  if (value === undefined) return null;
  if (!isObject(value)) return place.fail(`${place.at} must be an object with type and baseUrl`);
  onlyKnown(value, SEND_FIELDS, place.at, place.fail);
  if (value.type !== 'efi') place.fail(`${place.at}.type must be "efi"`);
  return { type: 'efi', baseUrl: url(value, 'baseUrl', place, ['https:']) };
}

function text(object: Json, field: string, { at, fail }: Place): string {
  const value = object[field];
  if (typeof value !== 'string' || value.trim() === '') return fail(`${at}.${field} is required (a non-empty string)`);
  return value;
}

function optionalText(object: Json, field: string, place: Place): string | null {
  return object[field] === undefined ? null : text(object, field, place);
}

/** `CN=webhooks.psp.example, O=PSP S.A.`: attributes of a certificate subject, each once. */
function subject(object: Json, field: string, place: Place): Record<string, string> | null {
  const value = optionalText(object, field, place);
  if (value === null) return null;
  const attributes = value.split(',').map((pair) => /^\s*([A-Za-z]+)=(.*\S)\s*$/.exec(pair));
  const keys = attributes.map((match) => match?.[1]);
  if (attributes.some((match) => !match) || new Set(keys).size !== keys.length) {
    place.fail(`${place.at}.${field} must list a certificate's subject attributes, each once, like "CN=webhooks.psp.example, O=PSP S.A."`);
  }
  return Object.fromEntries(attributes.map((match) => [match![1]!, match![2]!]));
}

function url(object: Json, field: string, place: Place, protocols: string[]): string {
  const value = text(object, field, place);
  let parsed: URL | null = null;
  try {
    parsed = new URL(value);
  } catch {
    // reported below
  }
  if (!parsed || !protocols.includes(parsed.protocol)) {
    place.fail(`${place.at}.${field} must be an ${protocols.map((p) => p.slice(0, -1)).join(' or ')} URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/** A PEM file named by `field`, relative to the routes file. */
function pem(object: Json, field: string, place: Place): string {
  const file = resolve(place.baseDir, text(object, field, place));
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (err) {
    return place.fail(`${place.at}.${field}: cannot read ${file} (${errorCode(err)})`);
  }
  if (!content.includes('-----BEGIN ')) place.fail(`${place.at}.${field}: ${file} is not a PEM file`);
  if (field === 'keyFile') warnIfShared(file, `${place.at}.${field}`, place.warn);
  return content;
}

function onlyKnown(object: Json, known: string[], at: string, fail: (message: string) => never): void {
  const unknown = Object.keys(object).find((key) => !known.includes(key));
  if (unknown !== undefined) fail(`${at ? `${at}.` : ''}${unknown} is not a known field (known: ${known.join(', ')})`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
