// At start, each PSP route with a webhookUrl registers it: PUT {baseUrl}/webhook/{pixKey}
// {"webhookUrl"}. The start never waits for it: a PSP that is down, or that checks the URL before
// the listener answers, gets the registration again in the background (after 5 s, doubling to every
// 5 minutes) until it succeeds or the process stops. Until then the engine learns outcomes by polling.
import type { Logger } from '../../runtime/log.js';
import { answerOf, type PspClient } from './client.js';

export interface RegistrationTiming {
  firstRetryMs: number;
  maxRetryMs: number;
}

const TIMING: RegistrationTiming = { firstRetryMs: 5_000, maxRetryMs: 300_000 };

/** Starts the registrations; the returned function stops the retries. */
export function registerPspWebhooks(clients: PspClient[], log: Logger, timing: RegistrationTiming = TIMING): () => void {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const attempt = async (client: PspClient, webhookUrl: string, retryMs: number): Promise<void> => {
    const { name, pixKey } = client.route;
    try {
      const answer = await answerOf(
        client.api.PUT('/webhook/{chave}', { params: { path: { chave: pixKey } }, body: { webhookUrl } }),
        `route ${name}: PUT /webhook`,
      );
      if (!answer.ok) throw answer.rejected;
      log.info({ route: name, webhookUrl }, 'PSP webhook registered');
    } catch (err) {
      if (stopped) return;
      log.warn(
        { route: name, webhookUrl, reason: (err as Error).message, retryInMs: retryMs },
        'PSP webhook registration failed: retrying in the background (outcomes are polled meanwhile)',
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(client, webhookUrl, Math.min(retryMs * 2, timing.maxRetryMs));
      }, retryMs);
      timer.unref();
      timers.add(timer);
    }
  };
  for (const client of clients) {
    if (client.route.webhookUrl) void attempt(client, client.route.webhookUrl, timing.firstRetryMs);
  }
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
