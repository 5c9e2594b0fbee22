// The integrator's webhook receiver: one path per account (`/hook/<accountId>`), answering 500 to a
// share of the deliveries so that the engine's retries run too. Every delivery is verified as the
// README tells receivers to (HMAC-SHA256 of "<t>.<raw body>" with the endpoint's secret, 300-second
// window); events are counted once per id.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startReceiver, type Receiver } from '../../test/helpers/webhook-receiver.js';

const TOLERANCE_SECONDS = 300;
const FAILURE_SHARE = 0.05;

export function validSignature(rawBody: string, header: string | undefined, secret: string, nowSeconds: number): boolean {
  const fields = new Map((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(fields.get('t'));
  const v1 = fields.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return false;
  const mac = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return timingSafeEqual(mac, Buffer.from(v1, 'hex'));
}

export interface Deliveries {
  /** Requests received, including those answered 500. */
  requests: number;
  /** Event ids received with a valid signature and answered 2xx. */
  eventIds: Set<string>;
  /** Requests whose signature did not verify (path, event id, header). */
  badSignatures: string[];
}

export class WebhookReceiver {
  private readonly secrets = new Map<string, string>();
  private readonly answers: number[] = [];

  private constructor(private readonly receiver: Receiver) {}

  static async start(): Promise<WebhookReceiver> {
    let self: WebhookReceiver | null = null;
    const receiver = await startReceiver((n) => {
      const status = Math.random() < FAILURE_SHARE ? 500 : 200;
      self!.answers[n - 1] = status;
      return { status };
    });
    self = new WebhookReceiver(receiver);
    return self;
  }

  urlFor(accountId: string): string {
    return `${this.receiver.url}/${accountId}`;
  }

  trust(accountId: string, secret: string): void {
    this.secrets.set(`/hook/${accountId}`, secret);
  }

  deliveries(): Deliveries {
    const result: Deliveries = { requests: this.receiver.received.length, eventIds: new Set(), badSignatures: [] };
    this.receiver.received.forEach((request, i) => {
      const secret = this.secrets.get(request.path);
      const header = request.headers['x-service-signature'] as string | undefined;
      let eventId = '?';
      try {
        eventId = JSON.parse(request.rawBody).id;
      } catch {
        // reported below as a bad delivery
      }
      if (!secret || !validSignature(request.rawBody, header, secret, Math.floor(request.receivedAtMs / 1000))) {
        result.badSignatures.push(`${request.path} ${eventId} ${header ?? '(no signature)'}`);
      } else if (this.answers[i] === 200) {
        result.eventIds.add(eventId);
      }
    });
    return result;
  }

  close(): Promise<void> {
    return this.receiver.close();
  }
}
