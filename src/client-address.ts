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
  if (net.isIPv6(address)) return `${prefix64(address).join(':')}::/64`;
  return address;
}

/**
 * The first four groups of an IPv6 address (its /64), in lower case without leading zeros. A dotted
 * IPv4 tail (always the last two groups, past the /64) only moves where the zeros of `::` end: it
 * counts as two groups, whatever its value.
 */
function prefix64(address: string): string[] {
  const [head, tail] = address.split('%')[0]!.split('::') as [string, string?];
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...zeros, ...right].slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
}
