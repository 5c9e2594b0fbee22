// Server-side request forgery guard for webhook receivers: only https URLs whose host resolves to
// public unicast addresses. Checked when a URL is registered and again on every connection, against
// the address actually resolved then (a DNS answer may change between the two: DNS rebinding).
// One rule (isPublicAddress) for both: ipaddr.js range "unicast", which excludes private, loopback,
// link-local (and with it the cloud metadata address 169.254.169.254), multicast, carrier-grade NAT,
// unspecified, unique-local IPv6 (fd00:ec2::254 among them), the reserved ranges and every IPv6 form
// that embeds an IPv4 address (mapped ::ffff:0:0/96, SIIT, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo),
// whatever address it embeds; and, which ipaddr.js calls unicast, IPv4-compatible ::a.b.c.d (::/96),
// which reaches the embedded IPv4 host. The connection-time check is request-filtering-agent's
// plumbing (its own rule is only the range), with this rule added to it.
// WEBHOOK_ALLOW_INSECURE=true (development and tests) allows http and any address.
import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, Socket, type LookupFunction, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';

const MAX_URL_LENGTH = 2048;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  return parsed.range() === 'unicast' && !(parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE));
}

/** What an operator changes to receive webhooks on a laptop: the refusal names the setting. */
const INSECURE_HINT = '; em desenvolvimento, defina WEBHOOK_ALLOW_INSECURE=true para aceitar http e endereços locais';

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
  if (!schemes.includes(url.protocol))
    return { ok: false, reason: allowInsecure ? 'url deve usar http ou https' : `url deve usar https${INSECURE_HINT}` };
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
    return {
      ok: false,
      reason: `url deve apontar para um endereço público (endereços privados, locais e de metadados são recusados)${INSECURE_HINT}`,
    };
  }
  return parsed;
}

class RefusedAddressError extends Error {
  constructor(address: string, host: string) {
    super(`the address ${address} of ${host} is not allowed: not a public address`);
  }
}

/** Resolves like `resolve`, failing when any address it gives is not public. */
function publicOnlyLookup(resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) =>
    resolve(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = typeof address === 'string' ? [address] : address;
      const refused = addresses.map((a) => (typeof a === 'string' ? a : a.address)).find((a) => !isPublicAddress(a));
      if (refused !== undefined) return callback(new RefusedAddressError(refused, hostname), '', 0);
      callback(null, address, family);
    });
}

class PublicAddressAgent extends RequestFilteringHttpsAgent {
  override createConnection(options: TcpNetConnectOpts, listener?: (error: Error | null, socket: Duplex) => void): Duplex {
    const host = options.host ?? '';
    if (isIP(host) && !isPublicAddress(host)) {
      // An address literal is never looked up: refuse it here, the way the library does.
      const socket = new Socket();
      const error = new RefusedAddressError(host, host);
      if (listener) listener(error, socket);
      else socket.destroy(error);
      return socket;
    }
    return super.createConnection({ ...options, lookup: publicOnlyLookup(options.lookup ?? dns.lookup) }, listener);
  }
}

const guardedAgent = new PublicAddressAgent({ keepAlive: true });
const insecureAgents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/** The agent that opens connections to a receiver; in secure mode it refuses non-public addresses as it connects. */
export function receiverAgent(url: URL, allowInsecure: boolean): http.Agent {
  return allowInsecure ? insecureAgents[url.protocol as 'http:' | 'https:'] : guardedAgent;
}

/** Refused by this rule, or by request-filtering-agent's (which has no error class or code, only this wording). */
export function isRefusedAddressError(err: Error): boolean {
  return err instanceof RefusedAddressError || /is not allowed/.test(err.message);
}
