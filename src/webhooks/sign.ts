// The signature every webhook delivery carries: `X-Service-Signature: t=<unix seconds>,v1=<hex>`,
// where the hex is the HMAC-SHA256 of "<t>.<raw body>" under the receiver's signing key.
import { createHmac } from 'node:crypto';

export function signPayload(secret: string, rawBody: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}
