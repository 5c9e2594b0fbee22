// pixctl's side of the admin API: PIX_ADMIN_URL (default http://127.0.0.1:3001) and ADMIN_TOKEN.
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3001';

/** The admin API refused the request, or could not be reached. */
export class AdminError extends Error {}

export class AdminClient {
  constructor(
    readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv): AdminClient {
    const token = env.ADMIN_TOKEN;
    if (!token) throw new AdminError('ADMIN_TOKEN is not set: export the admin API token first');
    // Accept the server root or the /admin prefix itself.
    const baseUrl = (env.PIX_ADMIN_URL || DEFAULT_ADMIN_URL).replace(/\/+$/, '').replace(/\/admin$/, '');
    return new AdminClient(baseUrl, token);
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
