// pixctl listen: an account's events, as they happen, forwarded to a URL exactly as webhook deliveries
// (same body, X-Service-Event, X-Service-Delivery, X-Service-Signature), signed with a `whsec_` secret
// made once per account and kept in DATA_DIR (mode 0600), so a local receiver keeps one secret across
// runs. It reads the admin API's event stream and, when the engine restarts, reconnects with the last
// event's id: nothing is missed (an event may be forwarded twice, as a webhook may be delivered twice).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signPayload } from '../../../webhooks/sign.js';
import { AdminError, AdminUnreachable, type AdminClient } from '../../../cli/client.js';
import { listOption, type CommandGroup } from '../../../cli/command.js';
import { sseMessages, type SseMessage } from '../sse.js';

const SECRETS_FILE = 'listen-secrets.json';
const RECONNECT_MS = 1_000;

/** The account's signing secret, made on first use and kept in `dataDir`. */
export async function listenSecret(dataDir: string, accountId: string): Promise<string> {
  const file = join(dataDir, SECRETS_FILE);
  const secrets: Record<string, string> = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, string>,
    () => ({}),
  );
  if (!secrets[accountId]) {
    secrets[accountId] = `whsec_${randomBytes(24).toString('hex')}`;
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets[accountId];
}

/** The same event forwarded again carries the same delivery id, so a receiver can tell a repeat. */
const deliveryIdOf = (eventId: string) => `whd_${createHash('sha256').update(`listen:${eventId}`).digest('hex').slice(0, 32)}`;

async function forward(url: string, secret: string, message: SseMessage): Promise<string> {
  const eventId = (JSON.parse(message.data) as { id: string }).id;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pixctl-listen',
        'x-service-event': message.event,
        'x-service-delivery': deliveryIdOf(eventId),
        'x-service-signature': signPayload(secret, message.data, Math.floor(Date.now() / 1000)),
      },
      body: message.data,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return `${message.event} ${eventId} → ${res.status}`;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
    return `${message.event} ${eventId} → not delivered (${cause})`;
  }
}

async function listen(admin: AdminClient, accountId: string, url: string, secret: string, events: string[] | undefined) {
  let lastEventId: string | undefined;
  let lost = false;
  for (;;) {
    try {
      const path = `/events/stream?${new URLSearchParams({ accountId })}`;
      const stream = await admin.stream(path, lastEventId ? { 'last-event-id': lastEventId } : {});
      console.log(`Ready: forwarding the events of ${accountId} to ${url}`);
      lost = false;
      for await (const message of sseMessages(stream)) {
        if (!events || events.includes(message.event)) console.log(`${new Date().toISOString()} ${await forward(url, secret, message)}`);
        if (message.id) lastEventId = message.id;
      }
    } catch (err) {
      const retryable =
        err instanceof AdminUnreachable || (err instanceof AdminError && (err.status ?? 0) >= 500) || !(err instanceof AdminError);
      if (!retryable) throw err;
    }
    if (!lost) console.log('The event stream ended; reconnecting…');
    lost = true;
    await sleep(RECONNECT_MS);
  }
}

export const listenCommand: CommandGroup = {
  name: 'listen',
  summary: "forward an account's events to a URL as signed webhook deliveries, as they happen",
  commands: [
    {
      name: '',
      summary:
        "forward an account's events to a URL as signed webhook deliveries (secret printed at start, kept in DATA_DIR); reconnects without losing one",
      options: {
        account: { type: 'string', description: 'the account (acc_…)', required: true },
        'forward-to': { type: 'string', description: 'the URL that receives the deliveries (http on a laptop is fine)', required: true },
        events: { type: 'string', description: 'only these events, comma-separated (transaction.approved,refund.approved)' },
      },
      async run({ options, admin, config }) {
        const accountId = options.account as string;
        const secret = await listenSecret(config.dataDir, accountId);
        console.log(`Signing secret: ${secret} (X-Service-Signature; kept in ${join(config.dataDir, SECRETS_FILE)})`);
        return listen(admin, accountId, options['forward-to'] as string, secret, listOption(options, 'events'));
      },
    },
  ],
};
