// pixctl's side of the admin API, at the URL and with the token of loadCliConfig (config.ts).
import type { CliConfig } from '../../config/config.js';

/** The admin API refused the request, or could not be reached. */
export class AdminError extends Error {}

export class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static of(config: CliConfig): AdminClient {
    if (!config.adminToken) throw new AdminError('ADMIN_TOKEN is not set: export the admin API token first');
    return new AdminClient(config.adminUrl, config.adminToken);
  }

  /** Calls /admin{path} and returns the envelope's `data`. */
  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const url = `${this.baseUrl}/admin${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { ...headers, authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminError(`cannot reach the admin API at ${this.baseUrl}: ${cause?.code ?? cause?.message ?? String(err)}`);
    }
    const text = await res.text();
    let envelope: { success?: boolean; data?: unknown; error?: { code?: string; message?: string } } | undefined;
    try {
      envelope = JSON.parse(text);
    } catch {
      envelope = undefined;
    }
    if (!res.ok || envelope?.success !== true) {
      const error = envelope?.error;
      throw new AdminError(error?.message ? `${error.message} (${error.code}, HTTP ${res.status})` : `HTTP ${res.status} from ${url}`);
    }
    return envelope.data;
  }
}
