// OAuth 2.0 client credentials (RFC 6749 §4.4) at the route's tokenUrl: HTTP Basic client
// authentication, grant_type as a form (default) or JSON (Efí). One token is shared by every call of
// the route and reused until `expires_in` minus the smaller of 60 s and 10 % of it, counted from when
// it was asked for, so it is never presented after it expired; concurrent callers wait for one request.
import { fetch, type Dispatcher } from 'undici';
import { PspUnavailable } from './errors.js';
import type { BcbApiPixRouteConfig } from '../../config/routes-file.js';

interface Token {
  value: string;
  validUntil: number;
}

export class OAuthTokens {
  #current: Token | null = null;
  #pending: Promise<Token> | null = null;

  constructor(
    private readonly route: BcbApiPixRouteConfig,
    private readonly dispatcher: Dispatcher,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token valid now: the cached one, or a new one. */
  async token(signal: AbortSignal): Promise<string> {
    if (this.#current && this.now() < this.#current.validUntil) return this.#current.value;
    this.#pending ??= this.request(signal).finally(() => {
      this.#pending = null;
    });
    this.#current = await this.#pending;
    return this.#current.value;
  }

  /** The PSP answered 401 to `token`: it is not presented again. */
  refuse(token: string): void {
    if (this.#current?.value === token) this.#current = null;
  }

  private async request(signal: AbortSignal): Promise<Token> {
    const { route } = this;
    const askedAt = this.now();
    const json = route.tokenBody === 'json';
    const credentials = Buffer.from(`${route.clientId}:${route.clientSecret.reveal()}`).toString('base64');
    let response;
    try {
      response = await fetch(route.tokenUrl, {
        method: 'POST',
        headers: {
          authorization: `Basic ${credentials}`,
          'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: json ? JSON.stringify({ grant_type: 'client_credentials' }) : 'grant_type=client_credentials',
        dispatcher: this.dispatcher,
        signal,
      });
    } catch (err) {
      throw new PspUnavailable(`route ${route.name}: token request failed (${failureOf(err)})`);
    }
    const body = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (!response.ok || typeof body?.access_token !== 'string' || body.access_token === '') {
      throw new PspUnavailable(`route ${route.name}: the token endpoint answered ${response.status} without a token`);
    }
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 0;
    const margin = Math.min(60, expiresIn * 0.1);
    return { value: body.access_token, validUntil: askedAt + (expiresIn - margin) * 1000 };
  }
}

/** Why a request got no answer: the network error's code (ECONNREFUSED, ECONNRESET, UND_ERR_…) or a timeout. */
export function failureOf(err: unknown): string {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
  return error.cause?.code ?? error.cause?.message ?? error.message;
}
