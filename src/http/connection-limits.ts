import fs from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../client-address.js';

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
