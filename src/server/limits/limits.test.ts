import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { projectRoot } from '../version.js';
import { LIMIT_NAMES, LIMITS, defaultLimitSettings } from './catalog.js';
import { clientKey } from './client-key.js';
import { Limits } from './limits.js';

/** Only the in-process limits are used here: no query is ever built on this. */
const noDb = {} as Db;

describe('client keys', () => {
  it('groups IPv6 by /64, unwraps IPv4-mapped addresses and keeps IPv4 as it is', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:a:b::1')).toBe(clientKey('2001:DB8:a:b:ffff:ffff:ffff:ffff'));
    expect(clientKey('2001:db8:a:b::1')).toBe(clientKey('2001:0db8:000a:000b:1:2:3:4'));
    expect(clientKey('2001:db8:a:b::1')).not.toBe(clientKey('2001:db8:a:c::1'));
    expect(clientKey('2001:db8:a:b:c:d:1.2.3.4')).toBe(clientKey('2001:db8:a:b::'));
    expect(clientKey('fe80::1%eth0')).toBe(clientKey('fe80::2'));
  });
});

describe('limits in the process', () => {
  const limitsAt = (time: { now: number }, values: Partial<Record<(typeof LIMIT_NAMES)[number], number>>) =>
    new Limits({ ...defaultLimitSettings(), ...values }, noDb, () => new Date(time.now));

  it('counts a window per key, answers the wait when full without counting, and opens a new window when it ends', () => {
    const time = { now: 0 };
    const limits = limitsAt(time, { 'public.requests': 2 });
    expect([limits.hit('public.requests', '192.0.2.1'), limits.hit('public.requests', '192.0.2.1')]).toEqual([0, 0]);
    time.now = 15_000;
    expect(limits.hit('public.requests', '192.0.2.1')).toBe(45);
    expect(limits.hit('public.requests', '192.0.2.2')).toBe(0);
    // An IPv6 client's neighbours in its /64 share its window.
    limits.hit('public.requests', '2001:db8::1');
    limits.hit('public.requests', '2001:db8::2');
    expect(limits.hit('public.requests', '2001:db8::3')).toBeGreaterThan(0);
    time.now = 60_000;
    expect(limits.hit('public.requests', '192.0.2.1')).toBe(0);
  });

  it('throws the limit’s own 429 with Retry-After', () => {
    const limits = limitsAt({ now: 0 }, { 'ical.feed': 1 });
    limits.take('ical.feed', 'feed');
    expect(() => limits.take('ical.feed', 'feed')).toThrow(
      expect.objectContaining({ status: 429, message: LIMITS['ical.feed'].refusal, headers: { 'retry-after': '3600' } }),
    );
  });

  it('gives slots all or none, and a release counts once', () => {
    const limits = limitsAt({ now: 0 }, { 'sockets.address': 2, 'sockets.account': 1 });
    const first = limits.slots([
      ['sockets.address', '192.0.2.1'],
      ['sockets.account', 'ann'],
    ]);
    expect('release' in first).toBe(true);
    // The account is full: the address's slot is not taken either.
    expect(
      limits.slots([
        ['sockets.address', '192.0.2.1'],
        ['sockets.account', 'ann'],
      ]),
    ).toEqual({ full: 'sockets.account' });
    expect(limits.held('sockets.address', '192.0.2.1')).toBe(1);

    const other = limits.slot('sockets.address', '192.0.2.1');
    expect(other).not.toBeNull();
    expect(limits.slot('sockets.address', '192.0.2.1')).toBeNull();
    other?.();
    other?.();
    expect(limits.held('sockets.address', '192.0.2.1')).toBe(1);
    if ('release' in first) first.release();
    expect([limits.held('sockets.address', '192.0.2.1'), limits.held('sockets.account', 'ann')]).toEqual([0, 0]);
  });
});

describe('limit settings', () => {
  const base = { AUTH_SECRET: 'a'.repeat(40), DATA_DIR: '/tmp/tavla-config-test' };

  it('reads every limit from its variable, with its default otherwise', () => {
    const variables = Object.fromEntries(LIMIT_NAMES.map((name, i) => [LIMITS[name].variable, String(i + 1)]));
    const read = loadConfig({ ...base, ...variables }).limits;
    expect(LIMIT_NAMES.map((name) => read[name])).toEqual(LIMIT_NAMES.map((_name, i) => i + 1));
    expect(loadConfig(base).limits).toEqual(defaultLimitSettings());
    expect(loadConfig({ ...base, EXPORTS_PER_ACCOUNT: '3' }).exportsPerAccount).toBe(3);
  });

  it('refuses a value that is not a whole number from 1, naming the variable', () => {
    expect(() => loadConfig({ ...base, SOCKETS_PER_ADDRESS: '0', SIGNIN_FAILURES_PER_ADDRESS: 'many' })).toThrow(
      /SOCKETS_PER_ADDRESS must be a whole number from 1[\s\S]*SIGNIN_FAILURES_PER_ADDRESS must be a whole number/,
    );
  });

  it('are the README’s Limits table, row for row', () => {
    const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Limits\n'), readme.indexOf('\n## Security\n'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(rows.map(([, name, fallback, variable]) => [name, fallback, variable])).toEqual(
      LIMIT_NAMES.map((name) => [`\`${name}\``, String(LIMITS[name].default), `\`${LIMITS[name].variable}\``]),
    );
  });
});
