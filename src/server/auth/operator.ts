import { isAPIError } from 'better-auth/api';
import type { Database } from '../db/database.js';
import { passwordSetByOperator, type AccountHooks, type Auth } from './auth.js';
import { adminCount, findAccountByMail, listAccounts, type ListedAccount } from './accounts.repository.js';

/**
 * What the operator does to accounts from the command line (cli/commands/user-*.ts),
 * through the sign-in library and its hooks as the administrators' API does:
 * the same password hashing and rules, the same first-account rule, the same
 * hooks (sessions and standing access end, other processes are told). The
 * command line has no administrator's session, so the library's admin
 * endpoints (which ask for one) are done here step by step as they do them.
 */
export interface OperatorDeps {
  auth: Auth;
  database: Database;
  hooks: AccountHooks;
}

/** The operation is refused (unknown account, address taken, password too short…); nothing was changed. */
export class AccountRefused extends Error {}

export type Role = 'admin' | 'user';

export interface CreatedAccount {
  id: string;
  email: string;
  role: Role;
  emailVerified: boolean;
}

/**
 * A new account. The instance's first account administers it and counts as
 * confirmed (the sign-up rule, auth.ts); `admin` makes any other one an
 * administrator too; `verified`: the operator vouches for the address. Any
 * other address gets the confirmation mail a sign-up gets, queued for the
 * service's job runner.
 */
export async function createAccount(
  deps: OperatorDeps,
  input: { email: string; name: string; password: string | null; admin: boolean; verified: boolean },
): Promise<CreatedAccount> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (name === '') throw new AccountRefused('The name must not be empty');
  if (input.password !== null) await checkPassword(deps.auth, input.password);
  const { user } = await refusals(() =>
    deps.auth.api.createUser({
      body: {
        email,
        name,
        ...(input.password === null ? {} : { password: input.password }),
        ...(input.verified ? { data: { emailVerified: true } } : {}),
      },
    }),
  );
  // The create hook makes only the first account an administrator (and steps back any other one made so).
  if (input.admin) await setRole(deps, email, 'admin');
  const context = await deps.auth.$context;
  const made = (await context.internalAdapter.findUserById(user.id)) as { role?: string | null; emailVerified: boolean } | null;
  if (!made) throw new AccountRefused(`The account ${email} was removed while it was being made`);
  if (!made.emailVerified) await refusals(() => deps.auth.api.sendVerificationEmail({ body: { email } }));
  return { id: user.id, email, role: made.role === 'admin' ? 'admin' : 'user', emailVerified: made.emailVerified };
}

export function accounts(deps: Pick<OperatorDeps, 'database'>): Promise<ListedAccount[]> {
  return listAccounts(deps.database.db);
}

/**
 * Sets the account's password as an administrator's set-password does: the
 * library's length rules and hash, a password login made when the account
 * had none (SSO only), then every session of the account ends and what it
 * handed out (API keys, feeds, webhooks, public links), as after a reset.
 */
export async function setPassword(deps: OperatorDeps, email: string, password: string): Promise<{ id: string }> {
  const account = await accountOf(deps, email);
  await checkPassword(deps.auth, password);
  const context = await deps.auth.$context;
  const hash = await context.password.hash(password);
  if (await context.internalAdapter.findCredentialAccount(account.id)) {
    await context.internalAdapter.updatePassword(account.id, hash);
  } else {
    await context.internalAdapter.createAccount({
      userId: account.id,
      providerId: 'credential',
      accountId: account.id,
      password: hash,
    });
  }
  await passwordSetByOperator(context, deps.hooks, account.id);
  return { id: account.id };
}

/**
 * Gives or takes the administrator role as the API's set-role does (the
 * account's update hooks run; on PostgreSQL the database tells the other
 * processes). The last administrator is not demoted: nobody could then make another.
 * Answers whether the role changed.
 */
export async function setRole(deps: OperatorDeps, email: string, role: Role): Promise<boolean> {
  const account = await accountOf(deps, email);
  const context = await deps.auth.$context;
  const current = (await context.internalAdapter.findUserById(account.id)) as { role?: string | null } | null;
  if ((current?.role ?? 'user') === role) return false;
  await context.internalAdapter.updateUser(account.id, { role });
  if (role === 'user' && (await adminCount(deps.database.db)) === 0) {
    // Checked after the change, so that two demotions at once cannot both pass a check made before either.
    await context.internalAdapter.updateUser(account.id, { role: 'admin' });
    throw new AccountRefused(`${account.email} is the last administrator: promote another account first`);
  }
  return true;
}

async function accountOf(deps: Pick<OperatorDeps, 'database'>, email: string) {
  const account = await findAccountByMail(deps.database.db, email.trim().toLowerCase());
  if (!account) throw new AccountRefused(`No account with the address ${email.trim()}`);
  return account;
}

/** The library's own length rule (minPasswordLength, maxPasswordLength in auth.ts). */
async function checkPassword(auth: Auth, password: string): Promise<void> {
  const { config } = (await auth.$context).password;
  if (password.length < config.minPasswordLength) {
    throw new AccountRefused(`The password must be at least ${config.minPasswordLength} characters`);
  }
  if (password.length > config.maxPasswordLength) {
    throw new AccountRefused(`The password must be at most ${config.maxPasswordLength} characters`);
  }
}

/** The library's refusals (an address taken or malformed) as ours, with its message. */
async function refusals<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAPIError(error)) throw new AccountRefused(error.message || String(error.status));
    throw error;
  }
}
