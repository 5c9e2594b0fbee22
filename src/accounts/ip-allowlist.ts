// IP allow-lists of API keys: single addresses and CIDR ranges, IPv4 and IPv6. An IPv4-mapped IPv6
// address (::ffff:203.0.113.7, as a dual-stack socket reports IPv4 peers) is treated as the IPv4
// address it carries, both in the list and in the caller's address.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** A strictly written address (dotted-quad IPv4 or IPv6), unmapped to IPv4 when it is IPv4-mapped. */
function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) {
    const v6 = ipaddr.IPv6.parse(text);
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  }
  return null;
}

function parseRange(entry: string): Range | null {
  const slash = entry.indexOf('/');
  if (slash === -1) {
    const address = parseAddress(entry);
    return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : null;
  }
  const text = entry.slice(0, slash);
  const prefixText = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return prefix <= 32 ? [ipaddr.IPv4.parse(text), prefix] : null;
  if (!ipaddr.IPv6.isValid(text) || prefix > 128) return null;
  const v6 = ipaddr.IPv6.parse(text);
  // ::ffff:10.0.0.0/104 is the IPv4 range 10.0.0.0/8.
  if (v6.isIPv4MappedAddress() && prefix >= 96) return [v6.toIPv4Address(), prefix - 96];
  return [v6, prefix];
}

/** The canonical form of an allow-list entry (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`), or null when invalid. */
export function normalizeAllowlistEntry(entry: string): string | null {
  const range = parseRange(entry.trim());
  if (!range) return null;
  const [address, prefix] = range;
  if (!entry.includes('/')) return address.toString();
  const family = address.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
  return `${family.networkAddressFromCIDR(`${address.toString()}/${prefix}`).toString()}/${prefix}`;
}

/** True when the list is empty (no restriction) or one of its entries contains `ip`. */
export function isIpAllowed(ip: string, allowlist: readonly string[]): boolean {
  if (allowlist.length === 0) return true;
  const address = parseAddress(ip);
  if (!address) return false;
  return allowlist.some((entry) => {
    const range = parseRange(entry);
    return range !== null && range[0].kind() === address.kind() && address.match(range);
  });
}
