// pixctl's side of the admin API, at the URL and with the token of loadCliConfig (config.ts).
import type { CliConfig } from '../config/config.js';

/** The admin API refused the request (`status`: its HTTP status), or could not be reached. */
export class AdminError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

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

  /** Opens a GET /admin{path} answered as a stream (server-sent events); a refusal throws, a stream is returned open. */
  async stream(path: string, headers: Record<string, string>): Promise<ReadableStream<Uint8Array>> {
    const url = `${this.baseUrl}/admin${path}`;
    let res: Response;
    try {
      res = await fetch(url, { headers: { ...headers, accept: 'text/event-stream', authorization: `Bearer ${this.token}` } });
    } catch (err) {
      throw unreachable(this.baseUrl, err);
    }
    if (!res.ok || !res.body) throw refusal(res, parsed(await res.text()));
    return res.body;
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
      throw unreachable(this.baseUrl, err);
    }
    return { res, text: await res.text() };
  }
}

/** The admin API could not be reached at all (refused, reset, no such host). */
export class AdminUnreachable extends AdminError {}

function unreachable(baseUrl: string, err: unknown): AdminUnreachable {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new AdminUnreachable(`cannot reach the admin API at ${baseUrl}: ${cause?.code ?? cause?.message ?? String(err)}`);
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
  return new AdminError(
    error?.message ? `${error.message} (${error.code}, HTTP ${res.status})` : `HTTP ${res.status} from ${res.url}`,
    res.status,
  );
}
