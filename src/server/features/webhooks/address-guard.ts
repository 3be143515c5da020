import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../../http/errors.js';

/** IPv4 ranges no webhook may reach: this host, private networks, link-local (with cloud metadata), CGNAT, test, multicast, reserved. */
const IPV4: Array<[string, number]> = [
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
];

/** IPv6 ranges: unspecified, loopback, IPv4-compatible, discard, documentation, unique-local (with AWS's fd00:ec2::254), site-local, link-local, multicast. */
const IPV6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
];

const blocked = new BlockList();
for (const [address, prefix] of IPV4) {
  // node's BlockList also applies these to IPv4-mapped IPv6 (::ffff:a.b.c.d).
  blocked.addSubnet(address, prefix, 'ipv4');
  // The same IPv4 ranges reached through NAT64 (64:ff9b::/96) or 6to4 (2002::/16).
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  const hi = ((a << 8) | b).toString(16);
  const lo = ((c << 8) | d).toString(16);
  blocked.addSubnet(`64:ff9b::${hi}:${lo}`, 96 + prefix, 'ipv6');
  blocked.addSubnet(`2002:${hi}:${lo}::`, 16 + prefix, 'ipv6');
}
for (const [address, prefix] of IPV6) blocked.addSubnet(address, prefix, 'ipv6');

/** Whether an IP address is one a webhook must never be sent to. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * A webhook address as the service accepts it: http or https, no user or
 * password in it (they would travel to every receiver in the clear and be
 * shown in every list), any port (receivers often listen on 8080 and the
 * like; what protects the network is the address check, not the port).
 */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest('body: url must be an http:// or https:// address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('body: url must be an http:// or https:// address');
  if (url.username !== '' || url.password !== '') throw badRequest('body: url must not contain a user name or password');
  if (url.hostname === '') throw badRequest('body: url must name a host');
  return url;
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export class ForbiddenAddress extends Error {}

/** How long a name may take to resolve: the system resolver can take far longer to give up. */
const LOOKUP_TIMEOUT_MS = 5000;

async function lookupInTime(host: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${host} did not resolve in time`)), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the host of a webhook address and answers the addresses to
 * connect to, in the resolver's order. Every address the name resolves to must be allowed, not just the first:
 * a name with one public and one private address would otherwise reach the
 * private one whenever the resolver's order changes.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<Resolved[]> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookupInTime(host);
  if (found.length === 0) throw new ForbiddenAddress(`${host} has no address`);
  if (!allowPrivate) {
    const refused = found.find((entry) => isForbiddenAddress(entry.address));
    if (refused) throw new ForbiddenAddress(`${host} resolves to ${refused.address}, which webhooks may not reach`);
  }
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}
