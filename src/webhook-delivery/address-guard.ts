import { lookup } from 'node:dns/promises';
import net from 'node:net';

/**
 * Server-side request forgery: an endpoint URL must not make airorder call something on its own
 * network (the database, a cloud's metadata service, an admin port on loopback). By default only
 * https URLs whose every address is public are called; the check is made at `webhook add` (where a
 * host that does not resolve yet only warns) and again at every attempt, and the attempt connects
 * to the address that was checked, so a DNS answer that changes in between (rebinding) does not
 * reach anything else.
 */
const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
// ::/96 holds ::, ::1 and the deprecated IPv4-compatible form (`[::127.0.0.1]` is written ::7f00:1);
// ::ffff:0:0:0/96 the IPv4-translated one. Neither names a public host: both are refused outright.
for (const [address, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');

/** Every address a host name resolves to, in the resolver's order. */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true, verbatim: true });

export interface GuardPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
  /** How host names are resolved: the system's resolver unless a test gives its own. */
  lookup?: HostLookup;
}

export class RefusedUrl extends Error {}

/** The resolver's answers that mean "no such name (yet)", as opposed to an answer that is refused. */
const NOT_RESOLVING = new Set(['ENOTFOUND', 'ENODATA', 'EAI_AGAIN']);

/** The host has no address (now): refused at an attempt, only a warning at registration. */
class HostDoesNotResolve extends RefusedUrl {
  constructor(
    readonly host: string,
    readonly code: string | undefined,
    detail: string,
  ) {
    super(`its host ${host} does not resolve${detail ? ` (${detail})` : ''}`);
  }
}

export interface VettedTarget {
  url: URL;
  /** The addresses to connect to, every one checked, in the resolver's order. */
  addresses: { address: string; family: 4 | 6 }[];
}

/**
 * Whether an address is public. Node's BlockList judges an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, or `::ffff:7f00:1`) by the IPv4 rules, so `[::ffff:10.0.0.1]` is refused as
 * 10.0.0.1 is; the other ways of writing IPv4 in IPv6 fall in ::/96 or ::ffff:0:0:0/96, refused.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** Reads the URL and checks what does not need the network: scheme, credentials, form. */
export function checkUrlForm(text: string, policy: GuardPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RefusedUrl(`${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new RefusedUrl(
      url.protocol === 'http:'
        ? 'the URL must be https (plain http is allowed only with WEBHOOK_ALLOW_HTTP=true)'
        : `the URL must be https, got ${url.protocol.replace(/:$/, '')}`,
    );
  }
  if (url.username || url.password)
    throw new RefusedUrl('the URL must not hold a user name or password (they would be logged and shown)');
  if (url.hash) throw new RefusedUrl('the URL must not have a #fragment');
  if (text.length > 2048) throw new RefusedUrl('the URL is longer than 2048 characters');
  return url;
}

/** Resolves the URL's host and checks every address; returns those to connect to. */
export async function vetTarget(text: string, policy: GuardPolicy): Promise<VettedTarget> {
  const url = checkUrlForm(text, policy);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(host)
      ? [{ address: host, family: net.isIP(host) }]
      : await (policy.lookup ?? systemLookup)(host);
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    throw new HostDoesNotResolve(host, code, code ?? (error as Error).message);
  }
  if (addresses.length === 0) throw new HostDoesNotResolve(host, 'ENODATA', '');
  if (!policy.allowPrivateNetworks) {
    const inside = addresses.find((candidate) => !isPublicAddress(candidate.address));
    if (inside) {
      throw new RefusedUrl(
        `its host ${host} resolves to ${inside.address}, a loopback, private or reserved address ` +
          '(allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)',
      );
    }
  }
  return {
    url,
    addresses: addresses.map((candidate) => ({ address: candidate.address, family: candidate.family === 6 ? 6 : 4 })),
  };
}

/**
 * The check at registration: as at an attempt, except that a host name that does not resolve yet
 * (its DNS is not live) is accepted with a warning naming it; every attempt resolves and checks it
 * again. Returns that warning, or null. A name that resolves to a refused address is refused.
 */
export async function vetRegistration(text: string, policy: GuardPolicy): Promise<string | null> {
  try {
    await vetTarget(text, policy);
    return null;
  } catch (error) {
    if (error instanceof HostDoesNotResolve && NOT_RESOLVING.has(error.code ?? '')) {
      return (
        `the host ${error.host} does not resolve yet (${error.code}): the endpoint is registered, and every delivery ` +
        'resolves it and checks its addresses again'
      );
    }
    throw error;
  }
}
