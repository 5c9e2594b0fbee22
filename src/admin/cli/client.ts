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
    const { res, text } = await this.send(method, path, body, headers);
    const envelope = parsed(text);
    if (!res.ok || envelope?.success !== true) throw refusal(res, envelope);
    return envelope.data;
  }

  /** GETs /admin{path} as `mediaType` (a statement as CSV) and returns the body as it came. */
  async text(path: string, mediaType: string): Promise<string> {
    const { res, text } = await this.send('GET', path, undefined, { accept: mediaType });
    if (!res.ok) throw refusal(res, parsed(text));
    return text;
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string>,
  ): Promise<{ res: Response; text: string }> {
    const url = `${this.baseUrl}/admin${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          ...headers,
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new AdminError(`cannot reach the admin API at ${this.baseUrl}: ${cause?.code ?? cause?.message ?? String(err)}`);
    }
    return { res, text: await res.text() };
  }
}

type Envelope = { success?: boolean; data?: unknown; error?: { code?: string; message?: string } };

function parsed(text: string): Envelope | undefined {
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return undefined;
  }
}

function refusal(res: Response, envelope: Envelope | undefined): AdminError {
  const error = envelope?.error;
  return new AdminError(error?.message ? `${error.message} (${error.code}, HTTP ${res.status})` : `HTTP ${res.status} from ${res.url}`);
}
