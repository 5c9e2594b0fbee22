import { describe, expect, it } from 'vitest';
import { isIpAllowed, normalizeAllowlistEntry } from '../../src/accounts/ip-allowlist.js';

describe('IP allow-lists', () => {
  it('lets any address through an empty list', () => {
    expect(isIpAllowed('203.0.113.7', [])).toBe(true);
    expect(isIpAllowed('2001:db8::1', [])).toBe(true);
  });

  it('matches single IPv4 addresses exactly', () => {
    expect(isIpAllowed('203.0.113.7', ['203.0.113.7'])).toBe(true);
    expect(isIpAllowed('203.0.113.8', ['203.0.113.7'])).toBe(false);
  });

  it('matches IPv4 CIDR ranges at their edges', () => {
    const list = ['10.1.0.0/16'];
    expect(isIpAllowed('10.1.0.0', list)).toBe(true);
    expect(isIpAllowed('10.1.255.255', list)).toBe(true);
    expect(isIpAllowed('10.2.0.0', list)).toBe(false);
    expect(isIpAllowed('10.0.255.255', list)).toBe(false);
    expect(isIpAllowed('1.2.3.4', ['0.0.0.0/0'])).toBe(true);
  });

  it('matches IPv6 addresses and ranges in any spelling', () => {
    expect(isIpAllowed('2001:db8::1', ['2001:0db8:0000:0000:0000:0000:0000:0001'])).toBe(true);
    expect(isIpAllowed('2001:db8:ffff::1', ['2001:db8::/32'])).toBe(true);
    expect(isIpAllowed('2001:db9::1', ['2001:db8::/32'])).toBe(false);
    expect(isIpAllowed('::1', ['::1'])).toBe(true);
  });

  it('treats IPv4-mapped IPv6 addresses as the IPv4 address they carry, on either side', () => {
    expect(isIpAllowed('::ffff:203.0.113.7', ['203.0.113.7'])).toBe(true);
    expect(isIpAllowed('::ffff:10.1.2.3', ['10.1.0.0/16'])).toBe(true);
    expect(isIpAllowed('203.0.113.7', ['::ffff:203.0.113.7'])).toBe(true);
    expect(isIpAllowed('10.9.9.9', ['::ffff:10.0.0.0/104'])).toBe(true);
    expect(isIpAllowed('11.0.0.1', ['::ffff:10.0.0.0/104'])).toBe(false);
  });

  it('never matches across families, nor garbage', () => {
    expect(isIpAllowed('2001:db8::1', ['0.0.0.0/0'])).toBe(false);
    expect(isIpAllowed('10.0.0.1', ['::/0'])).toBe(false);
    expect(isIpAllowed('not-an-ip', ['10.0.0.0/8'])).toBe(false);
    expect(isIpAllowed('', ['10.0.0.0/8'])).toBe(false);
    expect(isIpAllowed('10.0.0.1', ['garbage'])).toBe(false);
  });

  it('normalizes valid entries and refuses invalid ones', () => {
    expect(normalizeAllowlistEntry(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(normalizeAllowlistEntry('10.1.2.3/16')).toBe('10.1.0.0/16');
    expect(normalizeAllowlistEntry('2001:0DB8:0:0::1/32')).toBe('2001:db8::/32');
    expect(normalizeAllowlistEntry('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAllowlistEntry('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    for (const bad of ['', '10.0.0', '10.0.0.256', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/', '2001:db8::/129', '1', '0x7f.0.0.1', 'example.com', '10.0.0.0/8/8']) {
      expect(normalizeAllowlistEntry(bad), bad).toBeNull();
    }
  });
});
