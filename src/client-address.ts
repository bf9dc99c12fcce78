import net from 'node:net';

/**
 * The key a client's address is counted under, by the connection caps and the sign-in limits alike:
 * an IPv4 address as it is (an IPv4-mapped IPv6 peer of a socket bound to `::` included, so that it
 * counts once whichever way it arrives), an IPv6 address by its /64, the block one host or one network
 * is given and can pick any address from (docs/security.md).
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(address)) return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
  return address;
}

/** The eight groups of an IPv6 address, in lower case without leading zeros; a trailing dotted IPv4 part becomes two. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
