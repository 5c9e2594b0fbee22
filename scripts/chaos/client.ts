// The demanding integrator: every uncertain answer (connection error, timeout, 5xx, 202, 429) is
// repeated with the same request, and so the same idempotency key, until a final answer comes.
// Counts every repetition by cause, and keeps when each answer came and every 5xx, so that an answer
// no fault can explain (a 5xx before the first fault) is seen.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Answer {
  status: number;
  body: any;
}

export interface CallOptions {
  token: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A final-looking answer that this caller repeats anyway (e.g. "not at the network yet"). */
  retryIf?: (answer: Answer) => boolean;
}

/** A 5xx answer: when it came and to what. */
export interface ServerError {
  atMs: number;
  call: string;
  answer: string;
}

/** No final answer within the time limit: an operation that never completes is a violation. */
export class NoFinalAnswer extends Error {}

const REQUEST_TIMEOUT_MS = 30_000;
const GIVE_UP_MS = 240_000;

export class RetryingClient {
  readonly retries = new Map<string, number>();
  requests = 0;
  /** When each answer (of any status) arrived. */
  readonly answeredAtMs: number[] = [];
  readonly serverErrors: ServerError[] = [];

  private count(cause: string): void {
    this.retries.set(cause, (this.retries.get(cause) ?? 0) + 1);
  }

  private async once(method: string, url: string, options: CallOptions): Promise<Answer> {
    this.requests += 1;
    const headers: Record<string, string> = { authorization: `Bearer ${options.token}`, ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const atMs = Date.now();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { unparsed: text.slice(0, 200) };
    }
    this.answeredAtMs.push(atMs);
    if (res.status >= 500) {
      this.serverErrors.push({
        atMs,
        call: `${method} ${new URL(url).pathname}`,
        answer: `${res.status} ${JSON.stringify(body?.error ?? body)}`,
      });
    }
    return { status: res.status, body };
  }

  /** The first final answer; throws NoFinalAnswer after GIVE_UP_MS of uncertain ones. */
  async untilFinal(method: string, url: string, options: CallOptions): Promise<Answer> {
    const deadline = Date.now() + GIVE_UP_MS;
    let pause = 100;
    let last = 'none';
    for (;;) {
      let waitMs = pause;
      try {
        const answer = await this.once(method, url, options);
        if (answer.status === 429) {
          this.count('429');
          waitMs = Math.max(pause, Number(answer.body?.retryAfter ?? 1) * 1000);
        } else if (answer.status === 202 || answer.status >= 500) {
          this.count(String(answer.status));
        } else if (options.retryIf?.(answer)) {
          this.count(`${answer.status} ${answer.body?.error?.code ?? ''}`.trim());
        } else {
          return answer;
        }
        last = `${answer.status} ${JSON.stringify(answer.body?.error ?? answer.body?.data?.status ?? '')}`;
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
        this.count(`connection ${cause}`);
        last = String(cause);
      }
      if (Date.now() + waitMs > deadline)
        throw new NoFinalAnswer(`${method} ${url}: no final answer in ${GIVE_UP_MS / 1000} s (last: ${last})`);
      await sleep(waitMs);
      pause = Math.min(pause * 2, 2000);
    }
  }
}
