import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { badRequest } from '../../http/errors.js';

/**
 * IPv4 ranges no webhook may reach: this host, private networks, link-local
 * (with cloud metadata), CGNAT, IETF protocol assignments, documentation,
 * 6to4 relays, benchmarking, multicast, reserved and broadcast.
 */
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

/**
 * IPv6 is judged the other way round: only global unicast (2000::/3) may be
 * reached, so whatever lies outside it is refused without being listed
 * (unspecified, loopback, IPv4-mapped ::ffff:0:0/96 and IPv4-translated
 * ::ffff:0:0:0/96, IPv4-compatible, local-use NAT64 64:ff9b:1::/48, discard,
 * SRv6, unique-local with AWS's fd00:ec2::254, site- and link-local,
 * multicast, and any range defined later). The one exception is the
 * well-known NAT64 prefix, judged by the IPv4 address inside it.
 */
const GLOBAL_UNICAST = subnets('ipv6', [['2000::', 3]]);
const NAT64 = subnets('ipv6', [['64:ff9b::', 96]]);
const SIX_TO_FOUR = subnets('ipv6', [['2002::', 16]]);
/**
 * Inside global unicast: the IETF's protocol assignments (Teredo, which
 * carries an IPv4 address, benchmarking, ORCHID, AMT, …) and the two
 * documentation ranges.
 */
const IPV6_SPECIAL = subnets('ipv6', [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
]);
// One list per family: a list holding an IPv6 rule also applies it to IPv4 addresses (and the other way round).
const IPV4_FORBIDDEN = subnets('ipv4', IPV4);

function subnets(family: 'ipv4' | 'ipv6', ranges: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of ranges) list.addSubnet(address, prefix, family);
  return list;
}

/** The eight 16-bit words of a valid IPv6 address (with or without an IPv4 tail). */
function words(address: string): number[] {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const gap = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(gap).fill('0'), ...right].map((word) => parseInt(word, 16));
}

/** The IPv4 address held in two words of an IPv6 address, from word `at`. */
function embeddedIpv4(address: string, at: number): string {
  const w = words(address);
  return [w[at]! >> 8, w[at]! & 255, w[at + 1]! >> 8, w[at + 1]! & 255].join('.');
}

/** Whether an IP address is one a webhook must never be sent to. */
export function isForbiddenAddress(address: string): boolean {
  const plain = address.split('%')[0]!;
  const family = isIP(plain);
  if (family === 0) return true;
  if (family === 4) return IPV4_FORBIDDEN.check(plain, 'ipv4');
  if (NAT64.check(plain, 'ipv6')) return isForbiddenAddress(embeddedIpv4(plain, 6));
  if (!GLOBAL_UNICAST.check(plain, 'ipv6')) return true;
  if (SIX_TO_FOUR.check(plain, 'ipv6')) return isForbiddenAddress(embeddedIpv4(plain, 1));
  return IPV6_SPECIAL.check(plain, 'ipv6');
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

/**
 * A host webhooks may not be sent to. Its message never names an address
 * the host resolved to (that would map the internal network for whoever adds
 * webhooks), and a name that does not resolve at all gets the same message
 * as one that resolves to an internal address, so the answer does not tell
 * which internal names exist either.
 */
export class ForbiddenAddress extends Error {
  constructor(host: string) {
    super(`${host} is not allowed: webhooks may only be sent to hosts with public addresses`);
  }
}

/** How long a name may take to resolve: the system resolver can take far longer to give up. */
const LOOKUP_TIMEOUT_MS = 5000;

async function lookupInTime(host: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no answer in time')), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves the host of a webhook address and answers the addresses to
 * connect to, in the resolver's order. Every address the name resolves to
 * must be allowed, not just the first: a name with one public and one
 * private address would otherwise reach the private one whenever the
 * resolver's order changes. Unless private addresses are allowed, any
 * failure is a `ForbiddenAddress`; else a name that does not resolve says so.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<Resolved[]> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let found: Array<{ address: string; family: number }>;
  try {
    found = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookupInTime(host);
  } catch {
    found = [];
  }
  if (!allowPrivate && (found.length === 0 || found.some((entry) => isForbiddenAddress(entry.address)))) {
    throw new ForbiddenAddress(host);
  }
  if (found.length === 0) throw new Error(`${host} could not be resolved`);
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
}
