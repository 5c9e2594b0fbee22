// Verification of the engine's webhook deliveries: `X-Service-Signature: t=<unix seconds>,v1=<hex>`,
// the hex being the HMAC-SHA256 of "<t>.<raw body>" under the endpoint's secret (or, for a charge's
// own webhookUrl on an account without endpoints, the hex SHA-256 of the API key).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { webhooks } from './api.js';

export type WebhookEventName = keyof webhooks;
type EventOf<K extends WebhookEventName> = webhooks[K]['post']['requestBody']['content']['application/json'];
/** A delivered event, discriminated by `event` (`transaction.approved`, `med.created`, …). */
export type WebhookEvent = { [K in WebhookEventName]: EventOf<K> }[WebhookEventName];

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** The reason `signatureHeader` does not sign `rawBody` now, or null when it does. */
function signatureProblem(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds: number,
  nowSeconds: number,
): string | null {
  const fields = new Map((signatureHeader ?? '').split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const t = Number(fields.get('t'));
  const v1 = fields.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return 'malformed signature header';
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return 'timestamp outside the tolerance';
  const mac = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  return timingSafeEqual(mac, Buffer.from(v1, 'hex')) ? null : 'signature mismatch';
}

/**
 * True when `signatureHeader` (X-Service-Signature) signs `rawBody` — the body exactly as received,
 * before any JSON parsing — with `secret`, and its time is within `toleranceSeconds` of now.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
): boolean {
  return signatureProblem(rawBody, signatureHeader, secret, toleranceSeconds, Math.floor(Date.now() / 1000)) === null;
}

/** The typed event of a delivery whose signature `verifyWebhook` accepts; a WebhookSignatureError otherwise. */
export function constructWebhookEvent(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
): WebhookEvent {
  const problem = signatureProblem(rawBody, signatureHeader, secret, toleranceSeconds, Math.floor(Date.now() / 1000));
  if (problem !== null) throw new WebhookSignatureError(problem);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return JSON.parse(text) as WebhookEvent;
}
