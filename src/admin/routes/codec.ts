// The codec endpoint on the admin port: POST /codec/decode and /codec/encode, the remote codec protocol the
// Temporal Web UI and the `temporal` CLI speak (--codec-endpoint), so an operator reads decrypted histories
// while Temporal keeps ciphertext. Body and answer: {"payloads": [{"metadata": {"<key>": "<base64>"},
// "data": "<base64>"}]}; the UI sends X-Namespace. Guarded by ADMIN_TOKEN as a bearer token (the CLI's
// --codec-auth "Bearer …"). The Web UI cannot send that token (it sends only its own OIDC access token),
// so a UI is given /codec/ui/<secret> instead: CODEC_UI_SECRET, or for the embedded dev server's UI (local
// to this machine) a secret made at each start. Whoever can open that UI reads decoded histories through
// it anyway; the secret keeps everyone else out, and no log line holds it (codecLoggedPath). Browsers call from the UI's origin: CORS for the origins
// of CODEC_CORS_ORIGINS, preflight (OPTIONS) included, answered without a token.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Payload } from '@temporalio/common';
import type { Deps } from '../../runtime/deps.js';
import { jsonBody } from '../../http/edge.js';
import { ApiError, invalidRequest } from '../../http/errors.js';
import { secretCheck } from '../auth.js';
import { AesGcmPayloadCodec, PayloadDecryptionError } from '../../temporal/codec/aes-gcm-codec.js';
import type { PayloadKeys } from '../../config/payload-keys.js';

export interface CodecEndpointOptions {
  keys: PayloadKeys;
  /** The secret path segment of the embedded Web UI (newCodecUiSecret); null: no such path. */
  uiSecret: string | null;
  /** The admin API's bearer check. */
  auth: Koa.Middleware;
}

export function newCodecUiSecret(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The endpoint the embedded Web UI is given (it appends /decode and /encode), as the browser on this
 * machine reaches the admin port; null when that port is only known once listening (ADMIN_PORT=0).
 */
export function codecUiEndpoint(adminHost: string, adminPort: number, uiSecret: string): string | null {
  if (adminPort === 0) return null;
  const host = ['0.0.0.0', '::'].includes(adminHost) ? '127.0.0.1' : adminHost.includes(':') ? `[${adminHost}]` : adminHost;
  return `http://${host}:${adminPort}/codec/ui/${uiSecret}`;
}

const OPERATION = /^\/codec(\/ui\/[^/]+)?\/(encode|decode)$/;
const CODEC_WORDS = new Set(['', 'codec', 'ui', 'encode', 'decode']);

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What the access log says of a path: under a first segment that starts with `codec` (any case, escaped
 * or not) every segment but the endpoint's own words is masked, so a mistyped secret (`/CODEC/ui/<S>/…`,
 * `/codec//ui/<S>`, `…/decode/`) is not logged either; elsewhere, any segment holding the secret.
 */
export function codecLoggedPath(uiSecret: string | null): (path: string) => string {
  return (path) => {
    const segments = path.split('/');
    const underCodec = decoded(segments.find((segment) => segment !== '') ?? '')
      .toLowerCase()
      .startsWith('codec');
    const masked = (segment: string) => {
      const text = decoded(segment);
      return underCodec ? !CODEC_WORDS.has(text.toLowerCase()) : uiSecret !== null && text.includes(uiSecret);
    };
    return segments.map((segment) => (masked(segment) ? '…' : segment)).join('/');
  };
}
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function cors(ctx: Koa.Context, origins: string[]): void {
  ctx.vary('Origin');
  const origin = ctx.get('origin');
  if (!origins.includes(origin)) return;
  ctx.set('Access-Control-Allow-Origin', origin);
  ctx.set('Access-Control-Allow-Credentials', 'true');
  if (ctx.method !== 'OPTIONS') return;
  ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
  ctx.set('Access-Control-Max-Age', '600');
  if (ctx.get('access-control-request-private-network') === 'true') ctx.set('Access-Control-Allow-Private-Network', 'true');
}

function bytes(value: unknown, pointer: string): Uint8Array {
  if (typeof value !== 'string' || !BASE64.test(value) || value.length % 4 !== 0)
    throw invalidRequest(`${pointer} deve ser um texto em base64`);
  return Buffer.from(value, 'base64');
}

function object(value: unknown, pointer: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidRequest(`${pointer} deve ser um objeto`);
  return value as Record<string, unknown>;
}

function payloadsOf(body: unknown): Payload[] {
  // The CLI sends {} for no payloads (protobuf JSON leaves an empty list out).
  const { payloads = [] } = object(body ?? {}, 'O corpo');
  if (!Array.isArray(payloads)) throw invalidRequest('Campo /payloads deve ser uma lista');
  return payloads.map((item, i) => {
    const { metadata, data } = object(item, `Campo /payloads/${i}`);
    const entries = metadata === undefined ? [] : Object.entries(object(metadata, `Campo /payloads/${i}/metadata`));
    return {
      metadata: Object.fromEntries(entries.map(([key, value]) => [key, bytes(value, `Campo /payloads/${i}/metadata/${key}`)])),
      data: data === undefined ? undefined : bytes(data, `Campo /payloads/${i}/data`),
    };
  });
}

// A decoded payload's empty bytes can be protobufjs's default, a plain empty array.
const base64 = (value: Uint8Array | null | undefined) => Buffer.from(value ?? []).toString('base64');

function payloadJson(payload: Payload) {
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, base64(value)])),
    data: base64(payload.data),
  };
}

function refusal(err: PayloadDecryptionError): ApiError {
  return err.reason === 'unknown_key'
    ? invalidRequest(`Payload cifrado com a chave "${err.keyId}", que este processo não tem (PAYLOAD_KEYS / PAYLOAD_KEYS_FILE)`)
    : invalidRequest(
        `Payload cifrado inválido${err.keyId ? ` para a chave "${err.keyId}"` : ''}: alterado ou sem a identificação da chave`,
      );
}

/** Serves /codec/… and hands every other path to the admin API. */
export function codecEndpoint(deps: Deps, options: CodecEndpointOptions): Koa.Middleware {
  const codec = new AesGcmPayloadCodec(options.keys);
  const checkUiSecret = secretCheck(options.uiSecret);
  const readBody = jsonBody(deps.config.bodyLimitBytes);
  const namespace = deps.config.temporalNamespace;

  const serve = async (ctx: Koa.Context, operation: 'encode' | 'decode') => {
    await readBody(ctx, async () => {});
    const requested = ctx.get('x-namespace');
    if (requested && requested !== namespace) throw invalidRequest(`Este codec atende o namespace ${namespace}, não ${requested}`);
    const payloads = payloadsOf(ctx.request.body);
    try {
      const converted = operation === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
      ctx.body = { payloads: converted.map(payloadJson) };
    } catch (err) {
      if (err instanceof PayloadDecryptionError) throw refusal(err);
      throw err;
    }
  };

  return async (ctx, next) => {
    const match = OPERATION.exec(ctx.path);
    if (!match) return next();
    const operation = match[2] as 'encode' | 'decode';
    const viaUi = match[1] !== undefined;
    ctx.state.route = `${ctx.method} /codec${viaUi ? '/ui/…' : ''}/${operation}`;
    cors(ctx, deps.config.codecCorsOrigins);
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'POST') {
      throw new ApiError(405, 'method_not_allowed', `Método ${ctx.method} não permitido neste endereço; use POST`, {
        Allow: 'POST, OPTIONS',
      });
    }
    if (!viaUi) return options.auth(ctx, () => serve(ctx, operation));
    checkUiSecret(match[1]!.slice('/ui/'.length));
    return serve(ctx, operation);
  };
}
