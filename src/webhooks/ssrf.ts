// Server-side request forgery guard for webhook receivers: only https URLs whose host resolves to
// public unicast addresses. Checked when a URL is registered and again on every connection, against
// the address actually resolved then (a DNS answer may change between the two: DNS rebinding).
// The connection-time check is request-filtering-agent's; the registration check applies the same
// rule (ipaddr.js range "unicast"), which excludes private, loopback, link-local (and with it the
// cloud metadata address 169.254.169.254), multicast, carrier-grade NAT, unspecified, unique-local
// IPv6 (fd00:ec2::254 among them), IPv4-mapped IPv6 and the reserved ranges.
// WEBHOOK_ALLOW_INSECURE=true (development and tests) allows http and any address.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';

const MAX_URL_LENGTH = 2048;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.parse(address).range() === 'unicast';
}

/** The checks that need no network: a well-formed URL with an allowed scheme. */
export function parseReceiverUrl(raw: string, allowInsecure: boolean): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `url deve ter no máximo ${MAX_URL_LENGTH} caracteres` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url deve ser uma URL absoluta válida' };
  }
  const schemes = allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return { ok: false, reason: allowInsecure ? 'url deve usar http ou https' : 'url deve usar https' };
  if (url.username || url.password) return { ok: false, reason: 'url não pode conter usuário ou senha' };
  return { ok: true, url };
}

/** Registration check: the URL, and every address its host resolves to now. */
export async function checkReceiverUrl(raw: string, allowInsecure: boolean): Promise<UrlCheck> {
  const parsed = parseReceiverUrl(raw, allowInsecure);
  if (!parsed.ok || allowInsecure) return parsed;
  const host = parsed.url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      return { ok: false, reason: `o host ${host} da url não pôde ser resolvido` };
    }
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    return { ok: false, reason: 'url deve apontar para um endereço público (endereços privados, locais e de metadados são recusados)' };
  }
  return parsed;
}

const guardedAgent = new RequestFilteringHttpsAgent({ keepAlive: true });
const insecureAgents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** The agent that opens connections to a receiver; in secure mode it refuses non-public addresses as it connects. */
export function receiverAgent(url: URL, allowInsecure: boolean): http.Agent {
  return allowInsecure ? insecureAgents[url.protocol as 'http:' | 'https:'] : guardedAgent;
}

/** request-filtering-agent reports a refused address with this wording (it has no error class or code). */
export function isRefusedAddressError(err: Error): boolean {
  return /is not allowed/.test(err.message);
}
