import { isIP } from 'node:net';

/**
 * Which `X-Forwarded-For` entries to believe: none (`false`), the last `n` hops
 * (the proxies in front of the service, counted from the service), or only
 * those added by proxies at the given addresses.
 */
export type TrustProxy = false | number | string[];

const MAX_HOPS = 20;
/** proxy-addr's names for address ranges (as Fastify passes them on). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Reads `TRUST_PROXY`; answers the setting or a problem to report. `true` is
 * refused: trusting every hop makes the left-most, client-written entry the
 * address, so anyone could pick theirs and escape the sign-in limit.
 */
export function parseTrustProxy(raw: string | undefined): { value: TrustProxy } | { problem: string } {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '' || ['false', 'no', 'off', '0'].includes(value)) return { value: false };
  if (['true', 'yes', 'on'].includes(value)) {
    return {
      problem:
        'TRUST_PROXY=true would let any client choose its address with X-Forwarded-For: give the number of proxies ' +
        'in front of the service (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8)',
    };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= MAX_HOPS ? { value: hops } : { problem: `TRUST_PROXY must be a number of proxies from 1 to ${MAX_HOPS}` };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    return {
      problem: `TRUST_PROXY must be a number of proxies or a comma-separated list of proxy addresses or CIDR ranges (bad: "${bad.join('", "')}")`,
    };
  }
  return { value: entries };
}

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The setting as Fastify's `trustProxy`. Fastify 5 takes a list as it is, but
 * a bare number trusts nothing, so a hop count becomes a function: the socket
 * peer is hop 0, and the first `hops` of them are the proxies.
 */
export function fastifyTrustProxy(setting: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}
