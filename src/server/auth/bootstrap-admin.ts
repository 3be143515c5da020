import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.js';
import { accountIdByEmail, makeAdmin } from './accounts.repository.js';

/**
 * `ADMIN_EMAIL` + `ADMIN_PASSWORD` make sure an administrator exists: an
 * account with that address is created (sign-up may be closed) or, when it
 * already exists, left as it is.
 */
export async function bootstrapAdmin(deps: Deps, log: FastifyBaseLogger): Promise<void> {
  const admin = deps.config.admin;
  if (!admin) return;
  const { db } = deps.database;
  if (await accountIdByEmail(db, admin.email)) return;

  const ctx = await deps.auth.$context;
  const user = await ctx.internalAdapter.createUser(
    { email: admin.email, name: admin.name, emailVerified: true, role: 'admin' },
    { method: 'admin' },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: await ctx.password.hash(admin.password),
  });
  // The create hook only makes the very first account an administrator; this one always is.
  await makeAdmin(db, user.id);
  log.info({ email: admin.email }, 'administrator account created');
}
