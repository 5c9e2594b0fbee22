// The HTTP client of one PSP route: mTLS on every connection (the route's client certificate and key,
// and its optional extra CA beside the usual roots), an OAuth bearer token on every call (fetched
// again and the call repeated once on a 401), and one deadline per call that covers the token, the
// call and its repetition. `api` is typed by the standard's document (api-pix.d.ts, generated);
// `json` reaches what the standard does not cover (Efí's send API).
import { rootCertificates } from 'node:tls';
import createClient, { type Client } from 'openapi-fetch';
import { Agent, fetch } from 'undici';
import type { paths } from './api-pix.js';
import { problemOf, PspRejected, PspUnavailable } from './errors.js';
import { failureOf, OAuthTokens } from './oauth.js';
import type { BcbApiPixRouteConfig } from '../../config/routes-file.js';

/**
 * Under the accept step's 15 s local-activity timeout, which still runs a charge's creation: a token,
 * a call and its repetition after a 401 all fit in it.
 */
export const PSP_CALL_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;

export interface PspClientOptions {
  timeoutMs?: number;
  now?: () => number;
}

/** What every side of a PSP route (charges.ts, efi-send.ts, refunds.ts) is built on: the route's client and the side's own settings. */
export abstract class PspRouteSide<Settings> {
  /** Reached over the network: see ChargeRoute.remote. */
  readonly remote = true;

  constructor(
    protected readonly client: PspClient,
    protected readonly settings: Settings,
  ) {}

  get name(): string {
    return this.client.route.name;
  }
}

/** What a call answered: 2xx data, or the status of a 4xx (a 5xx or no answer throws PspUnavailable). */
export type PspAnswer<T> = { ok: true; status: number; data: T } | { ok: false; rejected: PspRejected };

export class PspClient {
  readonly api: Client<paths>;
  private readonly agent: Agent;
  private readonly tokens: OAuthTokens;
  private readonly timeoutMs: number;

  constructor(
    readonly route: BcbApiPixRouteConfig,
    options: PspClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? PSP_CALL_TIMEOUT_MS;
    this.agent = new Agent({
      connect: {
        cert: route.tls.cert,
        key: route.tls.key.reveal(),
        ...(route.tls.ca ? { ca: [...rootCertificates, route.tls.ca] } : {}),
        timeout: CONNECT_TIMEOUT_MS,
      },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    this.tokens = new OAuthTokens(route, this.agent, options.now);
    this.api = createClient<paths>({ baseUrl: route.baseUrl, fetch: (request) => this.authorized(request) });
  }

  /** A JSON call outside the standard's document, judged as `answerOf` judges the typed ones. */
  async json<T>(method: 'GET' | 'PUT', url: string, what: string, body?: unknown): Promise<PspAnswer<T>> {
    const response = await this.authorized(
      new Request(url, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return judged<T>(response.status, jsonOrNull(await response.text()), what);
  }

  /** Ends the route's connections at once, a connection still being attempted included. */
  close(): Promise<void> {
    return this.agent.destroy();
  }

  /** Sends `request` with a bearer token over the route's mTLS connections; a 401 gets a new token and one more try. */
  private async authorized(request: Request): Promise<Response> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const body = request.body ? await request.arrayBuffer() : undefined;
    const headers = Object.fromEntries(request.headers);
    const send = async (): Promise<{ token: string; response: Response }> => {
      const token = await this.tokens.token(signal);
      try {
        const response = await fetch(request.url, {
          method: request.method,
          headers: { ...headers, authorization: `Bearer ${token}` },
          body,
          dispatcher: this.agent,
          signal,
        });
        return { token, response: response as unknown as Response };
      } catch (err) {
        throw new PspUnavailable(`route ${this.route.name}: ${request.method} ${new URL(request.url).pathname} failed (${failureOf(err)})`);
      }
    };
    const first = await send();
    if (first.response.status !== 401) return first.response;
    await first.response.body?.cancel();
    this.tokens.refuse(first.token);
    return (await send()).response;
  }
}

/**
 * The answer of an openapi-fetch call as the routes read it: the data of a 2xx, the PspRejected of a
 * 4xx (408 and 429 excepted), and PspUnavailable thrown for the rest (5xx, 408, 429) so the call is retried.
 */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, what: string): Promise<PspAnswer<T>> {
  const { data, error, response } = await call;
  return judged<T>(response.status, data ?? error, what);
}

function judged<T>(status: number, body: unknown, what: string): PspAnswer<T> {
  if (status >= 200 && status < 300) return { ok: true, status, data: body as T };
  if (status < 400 || status >= 500 || status === 408 || status === 429) throw new PspUnavailable(`${what}: the PSP answered ${status}`);
  return { ok: false, rejected: new PspRejected(status, problemOf(body), what) };
}

/** The JSON value `text` holds; null for an empty or malformed body. */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
