// At start, each PSP route with a webhookUrl registers it: PUT {baseUrl}/webhook/{pixKey}
// {"webhookUrl"}, and, on a route that takes recurrences (its receiverAccount), PUT /webhookrec and
// PUT /webhookcobr with the same URL (Pix Automático; the PSP appends /rec and /cobr). The start never waits for it: a PSP that is down, or that checks the URL before
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
  type Registration = 'webhook' | 'webhookrec' | 'webhookcobr';
  const register = (client: PspClient, what: Registration, webhookUrl: string) => {
    const { name, pixKey } = client.route;
    const call =
      what === 'webhook'
        ? client.api.PUT('/webhook/{chave}', { params: { path: { chave: pixKey } }, body: { webhookUrl } })
        : what === 'webhookrec'
          ? client.api.PUT('/webhookrec', { body: { webhookUrl } })
          : client.api.PUT('/webhookcobr', { body: { webhookUrl } });
    return answerOf(call, `route ${name}: PUT /${what}`);
  };
  const attempt = async (client: PspClient, what: Registration, webhookUrl: string, retryMs: number): Promise<void> => {
    const { name } = client.route;
    try {
      const answer = await register(client, what, webhookUrl);
      if (!answer.ok) throw answer.rejected;
      log.info({ route: name, webhookUrl, registration: what }, 'PSP webhook registered');
    } catch (err) {
      if (stopped) return;
      log.warn(
        { route: name, webhookUrl, registration: what, reason: (err as Error).message, retryInMs: retryMs },
        'PSP webhook registration failed: retrying in the background (outcomes are polled meanwhile)',
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(client, what, webhookUrl, Math.min(retryMs * 2, timing.maxRetryMs));
      }, retryMs);
      timer.unref();
      timers.add(timer);
    }
  };
  for (const client of clients) {
    const { webhookUrl, receiverAccount } = client.route;
    if (!webhookUrl) continue;
    const registrations: Registration[] = receiverAccount ? ['webhook', 'webhookrec', 'webhookcobr'] : ['webhook'];
    for (const what of registrations) void attempt(client, what, webhookUrl, timing.firstRetryMs);
  }
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
