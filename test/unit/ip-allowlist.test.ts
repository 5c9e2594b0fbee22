import { describe, expect, it } from 'vitest';
import { isIpAllowed, normalizeAllowlistEntry } from '../../src/accounts/ip-allowlist.js';

describe('IP allow-lists', () => {
  // [what the row shows, caller address, allow-list, allowed]
  const CASES: Array<[string, string, string[], boolean]> = [
    ['an empty list lets any IPv4 through', '203.0.113.7', [], true],
    ['an empty list lets any IPv6 through', '2001:db8::1', [], true],
    ['a single IPv4 address matches exactly', '203.0.113.7', ['203.0.113.7'], true],
    ['a single IPv4 address matches no other', '203.0.113.8', ['203.0.113.7'], false],
    ['an IPv4 range holds its first address', '10.1.0.0', ['10.1.0.0/16'], true],
    ['an IPv4 range holds its last address', '10.1.255.255', ['10.1.0.0/16'], true],
    ['an IPv4 range ends at its last address', '10.2.0.0', ['10.1.0.0/16'], false],
    ['an IPv4 range starts at its first address', '10.0.255.255', ['10.1.0.0/16'], false],
    ['0.0.0.0/0 holds every IPv4', '1.2.3.4', ['0.0.0.0/0'], true],
    ['an IPv6 address matches its long spelling', '2001:db8::1', ['2001:0db8:0000:0000:0000:0000:0000:0001'], true],
    ['an IPv6 range holds its addresses', '2001:db8:ffff::1', ['2001:db8::/32'], true],
    ['an IPv6 range holds no other', '2001:db9::1', ['2001:db8::/32'], false],
    ['IPv6 loopback matches itself', '::1', ['::1'], true],
    ['an IPv4-mapped caller matches its IPv4 address', '::ffff:203.0.113.7', ['203.0.113.7'], true],
    ['an IPv4-mapped caller matches an IPv4 range', '::ffff:10.1.2.3', ['10.1.0.0/16'], true],
    ['an IPv4 caller matches an IPv4-mapped entry', '203.0.113.7', ['::ffff:203.0.113.7'], true],
    ['an IPv4 caller matches an IPv4-mapped range', '10.9.9.9', ['::ffff:10.0.0.0/104'], true],
    ['an IPv4-mapped range holds no other IPv4', '11.0.0.1', ['::ffff:10.0.0.0/104'], false],
    ['an IPv6 caller never matches an IPv4 range', '2001:db8::1', ['0.0.0.0/0'], false],
    ['an IPv4 caller never matches an IPv6 range', '10.0.0.1', ['::/0'], false],
    ['a caller that is no address matches nothing', 'not-an-ip', ['10.0.0.0/8'], false],
    ['an empty caller matches nothing', '', ['10.0.0.0/8'], false],
    ['a garbage entry matches nothing', '10.0.0.1', ['garbage'], false],
  ];

  it.each(CASES)('%s', (_what, ip, list, allowed) => {
    expect(isIpAllowed(ip, list)).toBe(allowed);
  });

  it('normalizes valid entries and refuses invalid ones', () => {
    expect(normalizeAllowlistEntry(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(normalizeAllowlistEntry('10.1.2.3/16')).toBe('10.1.0.0/16');
    expect(normalizeAllowlistEntry('2001:0DB8:0:0::1/32')).toBe('2001:db8::/32');
    expect(normalizeAllowlistEntry('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAllowlistEntry('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    for (const bad of [
      '',
      '10.0.0',
      '10.0.0.256',
      '10.0.0.0/33',
      '10.0.0.0/-1',
      '10.0.0.0/',
      '2001:db8::/129',
      '1',
      '0x7f.0.0.1',
      'example.com',
      '10.0.0.0/8/8',
    ]) {
      expect(normalizeAllowlistEntry(bad), bad).toBeNull();
    }
  });
});
