import net from 'node:net';

/**
 * The address a sign-in is counted against: an IPv4 address as it is (an IPv4-mapped IPv6 peer,
 * `::ffff:192.0.2.7`, as its IPv4 address), and an IPv6 address by its /64, the block one host or
 * one network is given: a host picks any address of its /64 at will (privacy addresses), so counted
 * one by one its tries and the rows they write would have no bound (docs/security.md).
 */
export function signInAddress(peer: string): string {
  if (!net.isIPv6(peer)) return peer;
  const mapped = /^::ffff:([0-9.]+)$/i.exec(peer);
  if (mapped && net.isIPv4(mapped[1]!)) return mapped[1]!;
  const [head = '', tail] = peer.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':'));
  const known = [...groups(head), ...groups(tail ?? '')];
  // An IPv4 tail (`64:ff9b::192.0.2.7`) is two groups, past the first four: it cannot change the /64.
  const width = known.length + (known.at(-1)?.includes('.') ? 1 : 0);
  const all = tail === undefined ? known : [...groups(head), ...Array<string>(8 - width).fill('0'), ...groups(tail)];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
