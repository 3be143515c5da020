import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BASE_URL, eachDialect, type TestContext } from '../../../test/harness.js';
import { loadConfig } from '../config.js';
import { LIMITS } from '../limits/catalog.js';
import { MAX_LOCK_SECONDS, pruneSignInFailures } from '../limits/signin-lockout.js';

/** Failures in a row from one client address that cost no wait (the next one does). */
const FREE_ATTEMPTS = LIMITS['signin.failures.client'].default - 1;

const signIn = (t: TestContext, email: string, password: string, from: { remoteAddress?: string; forwardedFor?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: BASE_URL, ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}) },
    ...(from.remoteAddress ? { remoteAddress: from.remoteAddress } : {}),
    payload: { email, password },
  });

/** The client addresses better-auth's sign-in limit has counted. */
const countedAddresses = async (t: TestContext) =>
  (await t.db.selectFrom('rateLimit').select('key').execute())
    .map((r) => r.key)
    .filter((key) => key.endsWith('|/sign-in/email'))
    .map((key) => key.slice(0, key.indexOf('|')))
    .sort();

const statusesOf = async (attempts: Array<() => Promise<LightMyRequestResponse>>) => {
  const statuses: number[] = [];
  for (const attempt of attempts) statuses.push((await attempt()).statusCode);
  return statuses;
};

eachDialect(
  'sign-in limit per client address, no proxy trusted',
  (t) => {
    it('ignores X-Forwarded-For: a made-up address does not escape the limit', async () => {
      const user = await t.signUp();
      const attempts = [0, 1, 2, 3, 4].map(
        (i) => () => signIn(t, user.email, 'guessing wrong', { remoteAddress: '192.0.2.10', forwardedFor: `198.51.100.${i}` }),
      );
      expect(await statusesOf(attempts)).toEqual([401, 401, 401, 429, 429]);
      expect(await countedAddresses(t)).toEqual(['192.0.2.10']);
    });
  },
  { env: { SIGNIN_RATE_LIMIT: '3' } },
);

eachDialect(
  'sign-in limit per client address behind one proxy (TRUST_PROXY=1)',
  (t) => {
    it('counts the address the proxy saw, not what the client wrote before it, and better-auth sees the same', async () => {
      const user = await t.signUp();
      const attempts = [0, 1, 2, 3, 4].map(
        (i) => () =>
          signIn(t, user.email, 'guessing wrong', { remoteAddress: '10.0.0.1', forwardedFor: `198.51.100.${i}, 203.0.113.5` }),
      );
      expect(await statusesOf(attempts)).toEqual([401, 401, 401, 429, 429]);

      // Another client behind the same proxy has its own count.
      const other = await signIn(t, user.email, user.password, { remoteAddress: '10.0.0.1', forwardedFor: '203.0.113.6' });
      expect(other.statusCode).toBe(200);
      expect(await countedAddresses(t)).toEqual(['203.0.113.5', '203.0.113.6']);
      const session = await t.db
        .selectFrom('session')
        .select('ipAddress')
        .where('token', '=', other.json<{ token: string }>().token)
        .executeTakeFirstOrThrow();
      expect(session.ipAddress).toBe('203.0.113.6');
    });
  },
  { env: { SIGNIN_RATE_LIMIT: '3', TRUST_PROXY: '1' } },
);

eachDialect(
  'sign-in limit per client address behind proxies given by address (TRUST_PROXY=10.0.0.0/8,127.0.0.1)',
  (t) => {
    it('believes only hops added by the listed proxies', async () => {
      const user = await t.signUp();
      // Through two listed proxies: the first address no listed proxy has is the client.
      const proxied = [0, 1, 2, 3].map(
        (i) => () =>
          signIn(t, user.email, 'guessing wrong', {
            remoteAddress: '10.20.30.40',
            forwardedFor: `198.51.100.${i}, 203.0.113.7, 10.0.0.2`,
          }),
      );
      expect(await statusesOf(proxied)).toEqual([401, 401, 401, 429]);
      // Straight from an address not on the list, X-Forwarded-For counts for nothing.
      // (Another address, or its own lockout would answer first.)
      const direct = [0, 1, 2, 3].map(
        (i) => () =>
          signIn(t, `direct.${t.dialect}@example.test`, 'guessing wrong', {
            remoteAddress: '192.0.2.50',
            forwardedFor: `203.0.113.${100 + i}`,
          }),
      );
      expect(await statusesOf(direct)).toEqual([401, 401, 401, 429]);
      expect(await countedAddresses(t)).toEqual(['192.0.2.50', '203.0.113.7']);
    });
  },
  { env: { SIGNIN_RATE_LIMIT: '3', TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' } },
);

eachDialect('sign-in lockout per address and client address', (t) => {
  const failures = () =>
    t.db
      .selectFrom('signin_failures')
      .select(['email', 'failures'])
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.email, r.failures])));

  /**
   * Fails `times` in a row, each once the previous wait is over, and right after
   * each failure from the fifth on tries `password`: answers what those tries got.
   */
  const failInARow = async (email: string, password: string, times: number) => {
    const answers: Array<{ status: number; retryAfter: unknown; body: unknown }> = [];
    let now = Date.now() + 86_400_000;
    for (let attempt = 1; attempt <= times; attempt++) {
      t.setTime(new Date(now));
      // Capitals or not, it is the same address.
      expect((await signIn(t, attempt % 2 ? email.toUpperCase() : email, 'guessing wrong')).statusCode).toBe(401);
      if (attempt <= FREE_ATTEMPTS) continue;
      const res = await signIn(t, email, password);
      answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'], body: res.json() });
      now += Number(res.headers['retry-after']) * 1000;
    }
    return answers;
  };
  const refusals = (waits: number[]) =>
    waits.map((w) => ({ status: 429, retryAfter: String(w), body: { error: expect.any(String) as unknown } }));

  it('makes an address wait 1 s, 2 s, 4 s… after its fifth failure in a row, up to 15 minutes, known or not', async () => {
    const user = await t.signUp();
    const nobody = `nobody.${t.dialect}@example.test`;
    try {
      const known = await failInARow(user.email, user.password, FREE_ATTEMPTS + 4);
      // Even the right password waits.
      expect(known).toEqual(refusals([1, 2, 4, 8]));
      // An address without an account gets exactly the same answers.
      expect(await failInARow(nobody, user.password, FREE_ATTEMPTS + 4)).toEqual(known);

      // Many failures later (each one waited out), the wait stops growing.
      await t.db.updateTable('signin_failures').set({ failures: 20, lockedUntil: null }).execute();
      for (const email of [user.email, nobody]) {
        let now = Date.now() + 30 * 86_400_000;
        for (let i = 0; i < 2; i++) {
          t.setTime(new Date(now));
          expect((await signIn(t, email, 'guessing wrong')).statusCode).toBe(401);
          const res = await signIn(t, email, user.password);
          expect([res.statusCode, res.headers['retry-after']]).toEqual([429, String(MAX_LOCK_SECONDS)]);
          now += MAX_LOCK_SECONDS * 1000;
        }
      }
    } finally {
      t.setTime(null);
    }
  });

  it('lets the right password in once the wait is over, and starts the count afresh', async () => {
    const user = await t.signUp();
    try {
      const now = Date.now() + 2 * 86_400_000;
      t.setTime(new Date(now));
      for (let i = 0; i < FREE_ATTEMPTS; i++) expect((await signIn(t, user.email, 'guessing wrong')).statusCode).toBe(401);
      expect((await signIn(t, user.email, user.password)).statusCode).toBe(200);
      expect((await failures()).has(user.email)).toBe(false);

      for (let i = 0; i <= FREE_ATTEMPTS; i++) expect((await signIn(t, user.email, 'guessing wrong')).statusCode).toBe(401);
      expect((await signIn(t, user.email, user.password)).statusCode).toBe(429);
      t.setTime(new Date(now + 1000));
      expect((await signIn(t, user.email, user.password)).statusCode).toBe(200);
      expect((await failures()).has(user.email)).toBe(false);
      // Afresh: the next failures are free again.
      for (let i = 0; i < FREE_ATTEMPTS; i++) expect((await signIn(t, user.email, 'guessing wrong')).statusCode).toBe(401);
      expect((await signIn(t, user.email, user.password)).statusCode).toBe(200);
    } finally {
      t.setTime(null);
    }
  });

  it('counts each attempt as it starts: guesses sent together do not slip past the lock', async () => {
    const user = await t.signUp();
    try {
      t.setTime(new Date(Date.now() + 3 * 86_400_000));
      for (let i = 0; i < FREE_ATTEMPTS; i++) expect((await signIn(t, user.email, 'guessing wrong')).statusCode).toBe(401);
      const together = await Promise.all([0, 1, 2, 3, 4, 5].map(() => signIn(t, user.email, 'guessing wrong')));
      expect(together.map((r) => r.statusCode).sort()).toEqual([401, 429, 429, 429, 429, 429]);
      expect((await failures()).get(user.email)).toBe(FREE_ATTEMPTS + 1);
    } finally {
      t.setTime(null);
    }
  });

  it('forgets an address a day after its last attempt', async () => {
    const email = `forgotten.${t.dialect}@example.test`;
    const now = new Date();
    expect((await signIn(t, email, 'guessing wrong')).statusCode).toBe(401);
    expect(await pruneSignInFailures(t.db, new Date(now.getTime() + 23 * 3600_000))).toBe(0);
    expect((await failures()).get(email)).toBe(1);
    await pruneSignInFailures(t.db, new Date(now.getTime() + 25 * 3600_000));
    expect((await failures()).has(email)).toBe(false);
  });

  it('locks out the stranger who failed, not the owner signing in from elsewhere', async () => {
    const owner = await t.signUp();
    const stranger = { remoteAddress: '198.51.100.66' };
    const home = { remoteAddress: '192.0.2.80' };
    try {
      t.setTime(new Date(Date.now() + 4 * 86_400_000));
      for (let i = 0; i <= FREE_ATTEMPTS; i++)
        expect((await signIn(t, owner.email, 'guessing wrong', stranger)).statusCode).toBe(401);
      // The stranger waits, even with the right password…
      const locked = await signIn(t, owner.email, owner.password, stranger);
      expect([locked.statusCode, locked.headers['retry-after'], locked.json()]).toEqual([
        429,
        '1',
        { error: 'Too many failed sign-ins, try again later' },
      ]);
      // …the owner, at home, does not; nor do their own typos cost them the stranger's wait.
      expect((await signIn(t, owner.email, 'my typo', home)).statusCode).toBe(401);
      const ownerIn = await signIn(t, owner.email, owner.password, home);
      expect(ownerIn.statusCode).toBe(200);
      expect(ownerIn.json<{ user: { id: string } }>().user.id).toBe(owner.id);
      // The owner's success does not unlock the stranger.
      expect((await signIn(t, owner.email, owner.password, stranger)).statusCode).toBe(429);
    } finally {
      t.setTime(null);
    }
  });

  it('counts an IPv6 client by its /64: moving to the next address of the block does not start afresh', async () => {
    const owner = await t.signUp();
    try {
      t.setTime(new Date(Date.now() + 5 * 86_400_000));
      for (let i = 0; i <= FREE_ATTEMPTS; i++) {
        const from = { remoteAddress: `2001:db8:5:6::${i + 1}` };
        expect((await signIn(t, owner.email, 'guessing wrong', from)).statusCode).toBe(401);
      }
      const sameBlock = await signIn(t, owner.email, owner.password, { remoteAddress: '2001:db8:5:6:ffff::9' });
      expect(sameBlock.statusCode).toBe(429);
      const otherBlock = await signIn(t, owner.email, owner.password, { remoteAddress: '2001:db8:5:7::1' });
      expect(otherBlock.statusCode).toBe(200);
    } finally {
      t.setTime(null);
    }
  });
});

eachDialect(
  'sign-in ceiling per address over all client addresses',
  (t) => {
    it('stops guessing spread over many client addresses, the owner too, until the window ends', async () => {
      const owner = await t.signUp();
      const start = Date.now() + 86_400_000;
      const failureRows = () => t.db.selectFrom('signin_failures').selectAll().orderBy('client').execute();
      const windows = () => t.db.selectFrom('invite_limits').selectAll().orderBy('key').execute();
      try {
        t.setTime(new Date(start));
        // Three guesses from each of four addresses: no client reaches its own lock.
        for (let i = 0; i < 12; i++) {
          const from = { remoteAddress: `203.0.113.${10 + (i % 4)}` };
          expect((await signIn(t, owner.email, 'guessing wrong', from)).statusCode).toBe(401);
        }
        const before = { failures: await failureRows(), windows: await windows() };

        t.setTime(new Date(start + 60_000));
        const fresh = await signIn(t, owner.email, 'guessing wrong', { remoteAddress: '203.0.113.99' });
        expect(fresh.statusCode).toBe(429);
        expect(fresh.json()).toEqual({ error: 'Too many failed sign-ins, try again later' });
        // The window opened with the first failure, 15 minutes before it ends.
        expect(fresh.headers['retry-after']).toBe(String(14 * 60));
        const owners = await signIn(t, owner.email, owner.password, { remoteAddress: '192.0.2.200' });
        expect(owners.statusCode).toBe(429);
        // Refused attempts changed nothing.
        expect({ failures: await failureRows(), windows: await windows() }).toEqual(before);
        // The window is kept only under a hash of the address.
        expect(before.windows.map((w) => w.key).filter((k) => k.startsWith('signin:'))).toHaveLength(1);
        expect(JSON.stringify(before.windows)).not.toContain(owner.email);

        // Another address is not held up.
        const other = await t.signUp();
        expect((await signIn(t, other.email, other.password, { remoteAddress: '203.0.113.10' })).statusCode).toBe(200);

        t.setTime(new Date(start + 15 * 60_000));
        expect((await signIn(t, owner.email, owner.password, { remoteAddress: '192.0.2.200' })).statusCode).toBe(200);
      } finally {
        t.setTime(null);
      }
    });
  },
  { env: { SIGNIN_FAILURES_PER_ADDRESS: '12' } },
);

describe('TRUST_PROXY', () => {
  const env = (value: string) => ({ TRUST_PROXY: value, AUTH_SECRET: 'a'.repeat(40), DATA_DIR: '/tmp/tavla-config-test' });

  it('refuses true, saying to give a hop count or addresses', () => {
    expect(() => loadConfig(env('true'))).toThrow(/TRUST_PROXY=true[\s\S]*number of proxies[\s\S]*addresses/);
  });

  it('takes a hop count, or proxy addresses and CIDR ranges, and names bad entries', () => {
    expect(loadConfig(env('2')).trustProxy).toBe(2);
    expect(loadConfig(env('false')).trustProxy).toBe(false);
    expect(loadConfig(env('0')).trustProxy).toBe(false);
    expect(loadConfig(env(' 10.0.0.0/8 , ::1, fd00::/8, loopback ')).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig(env('10.0.0.0/33,proxy.example,10.0.0.1'))).toThrow(/"10\.0\.0\.0\/33", "proxy\.example"/);
  });
});
