import net from 'node:net';

/** One address, or a CIDR range of them, as METRICS_ALLOW lists them. */
export interface AddressRange {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** Loopback: the host's own clients, which may always scrape. IPv4-mapped forms (`::ffff:127.0.0.1`) match too. */
export const LOOPBACK_RANGES: readonly AddressRange[] = Object.freeze([
  { address: '127.0.0.0', prefix: 8, family: 'ipv4' },
  { address: '::1', prefix: 128, family: 'ipv6' },
]);

/** `10.0.0.7`, `10.0.0.0/8`, `fd00::7` or `fd00::/8`; null for anything else (a zone id such as `%eth0` included). */
export function parseAddressRange(text: string): AddressRange | null {
  const [address, prefixText, ...more] = text.split('/') as [string, ...string[]];
  if (more.length > 0) return null;
  const version = net.isIP(address);
  // A zone id names an interface of one machine; a peer's address never carries one.
  if (version === 0 || address.includes('%')) return null;
  const widest = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? widest : Number(prefixText);
  if (prefix > widest) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Whether an address lies in one of the ranges; an absent or unreadable address never does. */
export function addressMatcher(ranges: readonly AddressRange[]): (address: string | undefined) => boolean {
  const list = new net.BlockList();
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family);
  return (address) => {
    const version = net.isIP(address ?? '');
    // Node's list compares an IPv4-mapped IPv6 peer (a socket bound to `::`) with the IPv4 ranges too.
    return version !== 0 && list.check(address!, version === 4 ? 'ipv4' : 'ipv6');
  };
}
