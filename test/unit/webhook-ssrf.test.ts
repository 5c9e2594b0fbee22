// The receiver URL rules: https on public addresses only, unless insecure mode.
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkReceiverUrl, isPublicAddress, isRefusedAddressError, parseReceiverUrl, receiverAgent } from '../../src/webhooks/ssrf.js';

// IPv6 forms that carry an IPv4 address: IPv4-compatible (::/96, which ipaddr.js calls unicast), mapped,
// SIIT, NAT64, 6to4 and Teredo; written as the URL parser normalises them (::127.0.0.1 is ::7f00:1).
const EMBEDDING_IPV4 = [
  '::7f00:1',
  '::a9fe:a9fe',
  '::a00:1',
  '::808:808',
  '::127.0.0.1',
  '::ffff:0:a00:1',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::808:808',
  '64:ff9b:1::a00:1',
  '2002:a00:1::1',
  '2001:0:4136:e378:8000:63bf:f5ff:fffe',
];

/** Opens a connection through the guarded agent and tells how it failed. */
function connectionError(url: string, lookup?: LookupFunction): Promise<Error> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = https.request(target, { agent: receiverAgent(target, false), lookup, timeout: 5_000 });
    req.on('error', resolve);
    req.on('timeout', () => req.destroy(new Error('connected (timeout)')));
    req.on('response', () => reject(new Error('answered')));
    req.end();
  });
}

describe('webhook SSRF guard', () => {
  it('tells public unicast addresses from private, loopback, link-local, metadata, CGNAT, multicast and unspecified ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('requires an absolute https URL without credentials, and accepts http in insecure mode', () => {
    expect(parseReceiverUrl('https://example.com/hook', false).ok).toBe(true);
    expect(parseReceiverUrl('http://example.com/hook', false)).toEqual({
      ok: false,
      reason: 'url deve usar https; em desenvolvimento, defina WEBHOOK_ALLOW_INSECURE=true para aceitar http e endereços locais',
    });
    expect(parseReceiverUrl('http://127.0.0.1:8080/hook', true).ok).toBe(true);
    expect(parseReceiverUrl('ftp://example.com', true).ok).toBe(false);
    expect(parseReceiverUrl('/relative', true).ok).toBe(false);
    expect(parseReceiverUrl('https://user:pass@example.com/', false).ok).toBe(false);
    expect(parseReceiverUrl(`https://example.com/${'a'.repeat(2100)}`, false).ok).toBe(false);
  });

  it('checks the addresses a host resolves to at registration; insecure mode skips it', async () => {
    expect((await checkReceiverUrl('https://93.184.216.34/hook', false)).ok).toBe(true);
    expect((await checkReceiverUrl('https://[2606:4700:4700::1111]/hook', false)).ok).toBe(true);
    for (const url of [
      'https://localhost/hook',
      'https://127.1/hook',
      'https://0x7f000001/',
      'https://[::1]/',
      'https://169.254.169.254/',
      'https://[fd00:ec2::254]/',
    ]) {
      const check = await checkReceiverUrl(url, false);
      expect(check.ok, url).toBe(false);
    }
    expect((await checkReceiverUrl('http://localhost:3000/hook', true)).ok).toBe(true);
  });

  it('refuses every IPv6 form that embeds an IPv4 address, IPv4-compatible ::a.b.c.d included', async () => {
    for (const address of EMBEDDING_IPV4) expect(isPublicAddress(address), address).toBe(false);
    for (const url of ['https://[::127.0.0.1]/', 'https://[::169.254.169.254]/', 'https://[::10.0.0.1]/', 'https://[64:ff9b::10.0.0.1]/']) {
      expect((await checkReceiverUrl(url, false)).ok, url).toBe(false);
    }
  });

  it('refuses them again when it connects, to a literal address or to what a name resolves to', async () => {
    for (const url of ['https://[::127.0.0.1]:9/', 'https://[::169.254.169.254]/', 'https://[::ffff:127.0.0.1]:9/']) {
      const err = await connectionError(url);
      expect(isRefusedAddressError(err), `${url}: ${err.message}`).toBe(true);
    }
    const rebinding: LookupFunction = (_host, options, callback) => {
      if (options.all) callback(null, [{ address: '::7f00:1', family: 6 }]);
      else callback(null, '::7f00:1', 6);
    };
    const err = await connectionError('https://receiver.example/hook', rebinding);
    expect(isRefusedAddressError(err), err.message).toBe(true);
  });
});
