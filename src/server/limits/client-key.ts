import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client address counts under: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64, the
 * smallest block a home or server is given, so that one client cannot get a
 * fresh count by moving to the next of its 2^64 addresses. Anything else (no
 * address at all) counts as itself.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros ("2001:db8::1" → 2001, db8, 0, …, 1). */
function expandIPv6(address: string): string[] {
  // A zone ("fe80::1%eth0") names the interface, not the address.
  const [bare = ''] = address.split('%');
  const [head = '', tail] = bare.split('::');
  const toGroups = (part: string) => (part === '' ? [] : part.split(':'));
  let left = toGroups(head);
  let right = tail === undefined ? [] : toGroups(tail);
  // An embedded IPv4 tail ("::1.2.3.4") is two groups.
  const last = (tail === undefined ? left : right).at(-1);
  if (last?.includes('.')) {
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    const groups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (tail === undefined) left = [...left.slice(0, -1), ...groups];
    else right = [...right.slice(0, -1), ...groups];
  }
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
