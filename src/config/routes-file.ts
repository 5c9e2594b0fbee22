// The routes file (PIX_ROUTES_FILE): the real Pix routes an account can pick besides `simulator`,
// each a PSP that speaks the Central Bank's API Pix. Read once at start: a file that cannot be read
// or parsed names the file, a missing or wrong field names the field (`routes.psp.tokenUrl`, worded by
// the file's schema, RoutesFile), so the start stops with a message an operator can act on. The certificate files are read here too, for
// the same reason. Secrets (client secret, private key) are kept as Secret: they never print. The routes
// file and the key files hold secrets: one that other users of the machine can read is reported (`warn`).
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Type, { type Static } from 'typebox';
import { firstFailure, REFUSAL } from './settings-schema.js';
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
  /**
   * The receiver's account at the PSP, as a recurrence's cycle charge (`cobr`) names it (the standard's
   * `recebedor`, required there); null: the route takes no recurrences (Pix Automático).
   */
  receiverAccount: ReceiverAccount | null;
}

/** The standard's DadosBancariosRecebedor. */
export interface ReceiverAccount {
  conta: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
  agencia?: string;
}

export class RoutesFileError extends Error {}

/** A required text: a string with something besides spaces. */
const text = () => Type.String({ pattern: '\\S', [REFUSAL]: 'is required (a non-empty string)' });

const url = (protocols: string[]) =>
  Type.Refine(
    text(),
    (value) => URL.canParse(value) && protocols.includes(new URL(value).protocol),
    (value) => `must be an ${protocols.map((p) => p.slice(0, -1)).join(' or ')} URL, got "${value}"`,
  );

/** `CN=webhooks.psp.example, O=PSP S.A.`: attributes of a certificate subject, each once; null when it is not that. */
function subjectAttributes(value: string): Record<string, string> | null {
  const attributes = value.split(',').map((pair) => /^\s*([A-Za-z]+)=(.*\S)\s*$/.exec(pair));
  const keys = attributes.map((match) => match?.[1]);
  if (attributes.some((match) => !match) || new Set(keys).size !== keys.length) return null;
  return Object.fromEntries(attributes.map((match) => [match![1]!, match![2]!]));
}

const Route = Type.Object(
  {
    type: Type.Literal(BCB_API_PIX, { [REFUSAL]: `must be "${BCB_API_PIX}"` }),
    baseUrl: url(['https:']),
    tokenUrl: url(['https:']),
    clientId: text(),
    clientSecret: text(),
    // null reads as the default, as an absent field
    tokenBody: Type.Optional(
      Type.Union([Type.Literal('form'), Type.Literal('json'), Type.Null()], { [REFUSAL]: 'must be "form" or "json"' }),
    ),
    tls: Type.Object(
      { certFile: text(), keyFile: text(), caFile: Type.Optional(text()) },
      { additionalProperties: false, [REFUSAL]: 'must be an object with certFile and keyFile' },
    ),
    pixKey: text(),
    webhookUrl: Type.Optional(url(['https:', 'http:'])),
    webhookClientSubject: Type.Optional(
      Type.Refine(
        text(),
        (value) => subjectAttributes(value) !== null,
        () => 'must list a certificate\'s subject attributes, each once, like "CN=webhooks.psp.example, O=PSP S.A."',
      ),
    ),
    merchantCity: Type.Optional(
      Type.Refine(
        text(),
        (value) => value.length <= 15,
        () => "must have at most 15 characters (the BR Code's limit)",
      ),
    ),
    send: Type.Optional(
      Type.Object(
        { type: Type.Literal('efi', { [REFUSAL]: 'must be "efi"' }), baseUrl: url(['https:']) },
        { additionalProperties: false, [REFUSAL]: 'must be an object with type and baseUrl' },
      ),
    ),
    receiverAccount: Type.Optional(
      Type.Object(
        {
          conta: Type.String({ pattern: '^[0-9A-Za-z-]{1,20}$', [REFUSAL]: 'must be the account number (1 to 20 characters)' }),
          tipoConta: Type.Union([Type.Literal('CORRENTE'), Type.Literal('POUPANCA'), Type.Literal('PAGAMENTO')], {
            [REFUSAL]: 'must be "CORRENTE", "POUPANCA" or "PAGAMENTO"',
          }),
          agencia: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', [REFUSAL]: 'must be the branch (1 to 4 digits)' })),
        },
        { additionalProperties: false, [REFUSAL]: 'must be an object with conta and tipoConta (and agencia)' },
      ),
    ),
  },
  { additionalProperties: false, [REFUSAL]: 'must be an object' },
);

const RouteName = Type.Refine(
  Type.String({
    pattern: ROUTE_NAME.source,
    [REFUSAL]: "a route name is 1 to 63 letters, digits, '_' or '-', starting with a letter or digit",
  }),
  (name) => !RESERVED_NAMES.includes(name),
  (name) => `${name} is the built-in route; give this one another name`,
);

const RoutesFile = Type.Object(
  { routes: Type.Record(Type.String(), Route, { propertyNames: RouteName, [REFUSAL]: 'must be an object of routes by name' }) },
  { additionalProperties: false, [REFUSAL]: 'the file must hold a JSON object with `routes`' },
);

type RouteEntry = Static<typeof Route>;

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
  if ((mode & 0o077) !== 0)
    warn(`${what}: ${file} has mode 0${mode.toString(8)}, readable by other users of this machine; make it 0600 (chmod 600)`);
}

function parseRoutes(parsed: unknown, baseDir: string, path: string, warn: (message: string) => void): BcbApiPixRouteConfig[] {
  const fail = (message: string): never => {
    throw new RoutesFileError(`PIX_ROUTES_FILE (${path}): ${message}`);
  };
  const failure = firstFailure(RoutesFile, parsed);
  if (failure) {
    const field = failure.steps.join('.');
    fail(field ? `${field}${failure.key ? ':' : ''} ${failure.phrase}` : failure.phrase);
  }
  const { routes } = parsed as Static<typeof RoutesFile>;
  return Object.entries(routes).map(([name, route]) => routeConfig(name, route, { at: `routes.${name}`, baseDir, fail, warn }));
}

interface Place {
  at: string;
  baseDir: string;
  fail: (message: string) => never;
  warn: (message: string) => void;
}

function routeConfig(name: string, route: RouteEntry, place: Place): BcbApiPixRouteConfig {
  const { tls } = route;
  const files = { ...place, at: `${place.at}.tls` };
  return {
    name,
    type: BCB_API_PIX,
    baseUrl: withoutTrailingSlash(route.baseUrl),
    tokenUrl: withoutTrailingSlash(route.tokenUrl),
    clientId: route.clientId,
    clientSecret: new Secret(route.clientSecret),
    tokenBody: route.tokenBody ?? 'form',
    tls: {
      cert: pem(tls.certFile, 'certFile', files),
      key: new Secret(pem(tls.keyFile, 'keyFile', files)),
      ca: tls.caFile === undefined ? null : pem(tls.caFile, 'caFile', files),
    },
    pixKey: route.pixKey,
    webhookUrl: route.webhookUrl === undefined ? null : withoutTrailingSlash(route.webhookUrl),
    webhookClientSubject: route.webhookClientSubject === undefined ? null : subjectAttributes(route.webhookClientSubject),
    merchantCity: route.merchantCity ?? DEFAULT_MERCHANT_CITY,
    send: route.send === undefined ? null : { type: 'efi', baseUrl: withoutTrailingSlash(route.send.baseUrl) },
    receiverAccount: route.receiverAccount ?? null,
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** The PEM file `file` names (`field` of the routes file), relative to the routes file. */
function pem(file: string, field: string, place: Place): string {
  const path = resolve(place.baseDir, file);
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (err) {
    return place.fail(`${place.at}.${field}: cannot read ${path} (${errorCode(err)})`);
  }
  if (!content.includes('-----BEGIN ')) place.fail(`${place.at}.${field}: ${path} is not a PEM file`);
  if (field === 'keyFile') warnIfShared(path, `${place.at}.${field}`, place.warn);
  return content;
}

function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}
