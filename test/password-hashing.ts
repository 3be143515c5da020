import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';
import type { PasswordHashing } from '../src/server/auth/auth.js';

/**
 * The tests' password hash: scrypt still (salted, a wrong password still fails),
 * at a cost about a hundredth of better-auth's N=16384, r=16, which takes
 * 100–200 ms a hash on a loaded CI machine and is paid by every account a test
 * makes. Its hashes say what they are (`test-scrypt:`), and a hash better-auth
 * made still verifies, so a database written by a real server process works
 * here too. src/server/auth/password-hashing.test.ts keeps the service's own
 * hasher covered.
 */
const PREFIX = 'test-scrypt:';
const COST = { N: 1024, r: 8, p: 1 };

function derive(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, 64, COST, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export const cheapPasswordHashing: PasswordHashing = {
  async hash(password) {
    const salt = randomBytes(16).toString('hex');
    return `${PREFIX}${salt}:${(await derive(password, salt)).toString('hex')}`;
  },
  async verify({ hash, password }) {
    if (!hash.startsWith(PREFIX)) return verifyPassword({ hash, password });
    const [salt, key] = hash.slice(PREFIX.length).split(':');
    if (!salt || !key) throw new Error('Invalid password hash');
    const expected = Buffer.from(key, 'hex');
    const actual = await derive(password, salt);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
