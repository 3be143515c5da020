import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { expect, it } from 'vitest';
import { BASE_URL, eachDialect, sessionCookie } from '../../../test/harness.js';
import { cheapPasswordHashing } from '../../../test/password-hashing.js';

/**
 * The other tests hash passwords with a cheaper scrypt (test/password-hashing.ts);
 * this one runs the service's own hasher, as main.ts builds it, end to end.
 */
const json = { origin: BASE_URL };

eachDialect(
  "the service's own password hashing",
  (t) => {
    const signIn = (email: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: json, payload: { email, password } });

    it('stores a salted scrypt hash of the password, which signs in, and refuses a wrong password', async () => {
      const user = await t.signUp('Real');
      const { password: stored } = await t.db
        .selectFrom('account')
        .select('password')
        .where('userId', '=', user.id)
        .where('providerId', '=', 'credential')
        .executeTakeFirstOrThrow();
      // better-auth's format, salt:key (hex), never the password itself, and not the tests' cheaper hash.
      expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
      expect(stored).not.toContain(user.password);
      expect(await verifyPassword({ hash: stored!, password: user.password })).toBe(true);
      expect(await verifyPassword({ hash: stored!, password: 'correct horse battery!' })).toBe(false);

      const good = await signIn(user.email, user.password);
      expect(good.statusCode).toBe(200);
      expect(sessionCookie(good)).toMatch(/session_token=/);
      expect((await signIn(user.email, 'wrong password!')).statusCode).toBe(401);
    });

    it('gives two accounts with the same password different hashes', async () => {
      const [a, b] = [await t.signUp(), await t.signUp()];
      const hashes = await t.db
        .selectFrom('account')
        .select('password')
        .where('userId', 'in', [a.id, b.id])
        .where('providerId', '=', 'credential')
        .execute();
      expect(a.password).toBe(b.password);
      expect(new Set(hashes.map((h) => h.password)).size).toBe(2);
    });
  },
  { realPasswordHashing: true },
);

it("the tests' cheaper hash is still a salted hash that refuses a wrong password and reads the service's hashes", async () => {
  const hash = await cheapPasswordHashing.hash('correct horse battery');
  expect(hash).not.toContain('correct horse battery');
  expect(await cheapPasswordHashing.hash('correct horse battery')).not.toBe(hash);
  expect(await cheapPasswordHashing.verify({ hash, password: 'correct horse battery' })).toBe(true);
  expect(await cheapPasswordHashing.verify({ hash, password: 'correct horse batter' })).toBe(false);
  const real = await hashPassword('correct horse battery');
  expect(await cheapPasswordHashing.verify({ hash: real, password: 'correct horse battery' })).toBe(true);
  expect(await cheapPasswordHashing.verify({ hash: real, password: 'correct horse batter' })).toBe(false);
});
