// The payer's page's response headers: a strict CSP (script and style only with this response's
// nonce, images and requests to the engine's own origin, nothing from elsewhere), framing only by
// the origins of CHECKOUT_FRAME_ANCESTORS, no referrer, nothing cached.
import { randomBytes } from 'node:crypto';

export const newNonce = (): string => randomBytes(16).toString('base64');

export function checkoutHeaders(frameAncestors: string[], nonce: string | null): Record<string, string> {
  const ancestors = frameAncestors.length === 0 ? "'none'" : frameAncestors.join(' ');
  const inline = nonce === null ? "'none'" : `'nonce-${nonce}'`;
  const csp = [
    "default-src 'none'",
    `script-src ${inline}`,
    `style-src ${inline}`,
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // For browsers without CSP frame-ancestors; with a list of origins CSP alone decides.
    ...(frameAncestors.length === 0 ? { 'X-Frame-Options': 'DENY' } : {}),
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
