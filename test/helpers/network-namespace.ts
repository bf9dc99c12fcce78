/**
 * A network namespace joined to this host by a veth pair, so that a test can send traffic from an
 * address other than loopback without it leaving the machine: the host side and the namespace share
 * a private /30 (in 10.200.0.0/16) and nothing else; there is no route beyond it. Needs root (`ip
 * netns`). Names carry this process's id: `remove()` undoes everything, and `removeAbandoned()`
 * whatever a test process killed before its cleanup left behind.
 */
import { execFileSync } from 'node:child_process';

const PREFIX = 'airorder-ns-';

export interface NetworkNamespace {
  name: string;
  /** The host side's address, which a service must listen on (or on 0.0.0.0) to be reached. */
  hostAddress: string;
  /** The address the namespace's connections come from. */
  namespaceAddress: string;
  remove(): void;
}

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    /* already gone */
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the namespaces (and their veth pairs) of test processes that are gone. */
export function removeAbandoned(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? '';
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length));
    if (Number.isInteger(pid) && !alive(pid)) {
      quietly(() => ip('netns', 'del', name));
      quietly(() => ip('link', 'del', `aoh${pid}`));
    }
  }
}

/** Creates the namespace and its link, up, with an address on each side. Throws when `ip` cannot (not root). */
export function createNetworkNamespace(): NetworkNamespace {
  const pid = process.pid;
  const name = `${PREFIX}${pid}`;
  // Interface names have at most 15 characters; a pid has at most 7 digits.
  const hostSide = `aoh${pid}`;
  const namespaceSide = `aon${pid}`;
  // A /30 of its own per process, so that two test runs on one machine do not meet.
  const block = pid % 16_384;
  const base = `10.200.${block >> 6}`;
  const last = (block & 63) << 2;
  const hostAddress = `${base}.${last + 1}`;
  const namespaceAddress = `${base}.${last + 2}`;
  const remove = () => {
    // Deleting the namespace deletes its end of the pair, and with it the host's end.
    quietly(() => ip('netns', 'del', name));
    quietly(() => ip('link', 'del', hostSide));
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', namespaceSide);
    ip('link', 'set', namespaceSide, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostSide);
    ip('link', 'set', hostSide, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${namespaceAddress}/30`, 'dev', namespaceSide);
    ip('netns', 'exec', name, 'ip', 'link', 'set', namespaceSide, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
  } catch (error) {
    remove();
    throw error;
  }
  return { name, hostAddress, namespaceAddress, remove };
}
