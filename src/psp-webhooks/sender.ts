// Who may post a route's webhooks, when the listener does the mTLS itself (PSP_WEBHOOK_TLS_*): the CA
// check happened at the handshake; here, never the engine's own client certificate (the one it presents
// to the PSPs, which a CA shared with them may well have signed), and, when the route names one
// (`webhookClientSubject`), only a certificate with that subject. Behind a TLS-terminating proxy the
// proxy checks the sender.
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type Koa from 'koa';
import { ApiError } from '../http/errors.js';
import type { BcbApiPixRouteConfig } from '../config/routes-file.js';

const refused = () => new ApiError(403, 'permission_denied', 'Certificado do remetente não aceito para esta rota');

function fingerprint(pem: string): string | null {
  try {
    return new X509Certificate(pem).fingerprint256;
  } catch {
    return null; // not a certificate the engine could present either
  }
}

/** Throws 403 permission_denied when the caller's certificate may not post webhooks of `route`. */
export function senderCheck(routes: BcbApiPixRouteConfig[]): (ctx: Koa.Context, route: string) => void {
  const own = new Set(routes.map((route) => fingerprint(route.tls.cert)).filter((value) => value !== null));
  const subjects = new Map(routes.map((route) => [route.name, route.webhookClientSubject]));
  return (ctx, route) => {
    const socket = ctx.req.socket as Partial<TLSSocket>;
    if (!socket.encrypted || !socket.getPeerCertificate) return;
    const peer = socket.getPeerCertificate();
    if (own.has(peer.fingerprint256)) throw refused();
    const wanted = subjects.get(route);
    if (!wanted) return;
    const held = (peer.subject ?? {}) as unknown as Record<string, string | string[] | undefined>;
    for (const [attribute, value] of Object.entries(wanted)) {
      if (![held[attribute]].flat().includes(value)) throw refused();
    }
  };
}
