// The receiver URL rules: https on public addresses only, unless insecure mode.
import { describe, expect, it } from 'vitest';
import { checkReceiverUrl, isPublicAddress, parseReceiverUrl } from '../../src/webhooks/ssrf.js';

describe('webhook SSRF guard', () => {
  it('tells public unicast addresses from private, loopback, link-local, metadata, CGNAT, multicast and unspecified ones', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', 'not-an-ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('requires an absolute https URL without credentials, and accepts http in insecure mode', () => {
    expect(parseReceiverUrl('https://example.com/hook', false).ok).toBe(true);
    expect(parseReceiverUrl('http://example.com/hook', false)).toEqual({ ok: false, reason: 'url deve usar https' });
    expect(parseReceiverUrl('http://127.0.0.1:8080/hook', true).ok).toBe(true);
    expect(parseReceiverUrl('ftp://example.com', true).ok).toBe(false);
    expect(parseReceiverUrl('/relative', true).ok).toBe(false);
    expect(parseReceiverUrl('https://user:pass@example.com/', false).ok).toBe(false);
    expect(parseReceiverUrl(`https://example.com/${'a'.repeat(2100)}`, false).ok).toBe(false);
  });

  it('checks the addresses a host resolves to at registration; insecure mode skips it', async () => {
    expect((await checkReceiverUrl('https://93.184.216.34/hook', false)).ok).toBe(true);
    expect((await checkReceiverUrl('https://[2606:4700:4700::1111]/hook', false)).ok).toBe(true);
    for (const url of ['https://localhost/hook', 'https://127.1/hook', 'https://0x7f000001/', 'https://[::1]/', 'https://169.254.169.254/', 'https://[fd00:ec2::254]/']) {
      const check = await checkReceiverUrl(url, false);
      expect(check.ok, url).toBe(false);
    }
    expect((await checkReceiverUrl('http://localhost:3000/hook', true)).ok).toBe(true);
  });
});
