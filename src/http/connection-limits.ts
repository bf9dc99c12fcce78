import fs from 'node:fs';
import net from 'node:net';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export type RefusedBy = 'total' | 'address';

export interface ConnectionLimits {
  /** MAX_CONNECTIONS, before the open-files limit is taken into account. */
  maxConnections: number;
  /** MAX_CONNECTIONS_PER_ADDRESS; 0: no per-address cap. */
  maxConnectionsPerAddress: number;
}

export interface ConnectionCounts {
  /** Connections this process holds now. */
  open(): number;
  /** The total cap in force: MAX_CONNECTIONS, or lower when the open-files limit is lower. */
  readonly maxConnections: number;
}

/**
 * The key an address's connections count under: an IPv4 address as it is (an IPv4-mapped IPv6 peer
 * of a socket bound to `::` included, so that it counts once whichever way it arrives), an IPv6
 * address by its /64, the block one host or one network is given and can pick any address from.
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

/** File descriptors kept for everything but connections: the store, log output, uploads, webhook calls. */
const FILES_KEPT_FOR_THE_REST = 0.25;

/**
 * This process's open-files limit (Node raises the soft limit to the hard one as it starts), read
 * from /proc on Linux; null where it cannot be read.
 */
export function openFilesLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Caps the connections the server holds, in total and per address (docs/security.md, "Connections").
 * A connection past either cap is closed as soon as it is accepted, before a byte of it is read: its
 * file descriptor is free again at once, and it costs next to nothing, so that a flood from one
 * address neither takes every descriptor (the process could then accept nothing, health checks
 * included) nor the total cap from everyone else. The total is lowered to three quarters of the
 * open-files limit when that is lower, as a cap past the limit would never be reached before
 * `accept` fails.
 *
 * Not Node's `server.maxConnections`: under `serve --workers` a worker at that cap hands the
 * connection back to the primary, which offers it to the next worker, and again, holding it open
 * all the while; counted here, the worker takes it and closes it, in one process as in several.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  refused: (by: RefusedBy) => void,
  filesLimit: number | null = openFilesLimit(),
): ConnectionCounts {
  const usable = filesLimit === null ? Infinity : Math.max(1, Math.floor(filesLimit * (1 - FILES_KEPT_FOR_THE_REST)));
  const maxConnections = Math.min(limits.maxConnections, usable);
  const perAddress = new Map<string, number>();
  let open = 0;
  server.on('connection', (socket: Socket) => {
    // An address is absent only when the socket is already gone.
    if (socket.remoteAddress === undefined) return;
    if (open >= maxConnections) {
      refused('total');
      socket.destroy();
      return;
    }
    const key = addressKey(socket.remoteAddress);
    const held = perAddress.get(key) ?? 0;
    if (limits.maxConnectionsPerAddress > 0 && held >= limits.maxConnectionsPerAddress) {
      refused('address');
      socket.destroy();
      return;
    }
    perAddress.set(key, held + 1);
    open += 1;
    socket.once('close', () => {
      open -= 1;
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left === 0) perAddress.delete(key);
      else perAddress.set(key, left);
    });
  });
  return { open: () => open, maxConnections };
}
