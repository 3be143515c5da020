/**
 * Every limit of the service, in one place: what it bounds, per what, its
 * environment variable and default. The README's "Limits" table is this
 * table (limits.test.ts checks that they agree), and `config.limits` holds
 * the values read from the environment.
 *
 * Kinds:
 * - `slots`: things held at once (open sockets, running exports), counted in
 *   this process; a slot is given back when the thing ends.
 * - `window`: uses per fixed time window, counted in this process.
 * - `stored`: uses per fixed time window, counted in the database (shared by
 *   every process), inside the caller's transaction.
 * - `lockout`: failures in a row before each further attempt must wait,
 *   counted in the database.
 * - `auth`: requests per window that better-auth counts in the database.
 */
export type LimitKind = 'slots' | 'window' | 'stored' | 'lockout' | 'auth';

/** What a limit's key is; a client address is grouped (IPv6 by /64) before it counts. */
export type LimitScope =
  'client address' | 'account' | 'public link' | 'calendar feed' | 'e-mail address' | 'e-mail and client address' | 'instance';

export interface LimitSpec {
  kind: LimitKind;
  per: LimitScope;
  variable: string;
  default: number;
  max: number;
  /** The window's length, for the kinds that count per window. */
  seconds?: number;
  /** The refused request's `{error}`. */
  refusal: string;
  /** For the README: what is bounded. */
  bounds: string;
  /** Stored windows: the row key's prefix in `invite_limits` (kept as it was, so an upgrade forgets no count). */
  storedAs?: string;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const LIMITS = {
  'sockets.address': {
    kind: 'slots',
    per: 'client address',
    variable: 'SOCKETS_PER_ADDRESS',
    default: 100,
    max: 100_000,
    refusal: 'Too many open connections from your address: close some and try again',
    bounds: 'open WebSockets, `/api/realtime` and public-link live views together',
  },
  'sockets.account': {
    kind: 'slots',
    per: 'account',
    variable: 'SOCKETS_PER_ACCOUNT',
    default: 20,
    max: 100_000,
    refusal: 'Too many open connections for this account: close some tabs and try again',
    bounds: 'open `/api/realtime` sockets, all sessions and API keys of the account together',
  },
  'sockets.link': {
    kind: 'slots',
    per: 'public link',
    variable: 'SOCKETS_PER_PUBLIC_LINK',
    default: 200,
    max: 100_000,
    refusal: 'Too many live views of this link: the page falls back to checking for changes now and then',
    bounds: 'open live views (WebSockets) of one public link',
  },
  'exports.account': {
    kind: 'slots',
    per: 'account',
    variable: 'EXPORTS_PER_ACCOUNT',
    default: 2,
    max: 100,
    refusal: 'Too many exports of yours are running; try again when one has finished',
    bounds: 'exports (board zip, CSV, instance) running at once',
  },
  'exports.instance': {
    kind: 'slots',
    per: 'instance',
    variable: 'EXPORTS_PER_INSTANCE',
    default: 4,
    max: 100,
    refusal: 'Too many exports are running; try again later',
    bounds: 'exports running at once; on PostgreSQL also the size of the exports’ own connection pool',
  },
  'imports.account': {
    kind: 'slots',
    per: 'account',
    variable: 'IMPORTS_PER_ACCOUNT',
    default: 1,
    max: 10,
    refusal: 'An import of yours is already under way; try again when it has finished',
    bounds: 'board imports (own zips, Trello) one account runs at once',
  },
  'imports.instance': {
    kind: 'slots',
    per: 'instance',
    variable: 'IMPORTS_PER_INSTANCE',
    default: 2,
    max: 100,
    refusal: 'Too many imports are running; try again later',
    bounds: 'board imports running at once: each holds a large file in memory and takes its share of the process',
  },
  'public.requests': {
    kind: 'window',
    per: 'client address',
    variable: 'PUBLIC_LINK_RATE_LIMIT',
    default: 240,
    max: 100_000,
    seconds: MINUTE,
    refusal: 'Too many requests: try again later',
    bounds: 'requests to public board links (`/api/public/*`, socket upgrades included)',
  },
  'ical.feed': {
    kind: 'window',
    per: 'calendar feed',
    variable: 'ICAL_FEED_RATE_LIMIT',
    default: 60,
    max: 100_000,
    seconds: HOUR,
    refusal: 'Too many requests for this feed, try again later',
    bounds: 'reads of one calendar feed address',
  },
  'invites.account': {
    kind: 'stored',
    per: 'account',
    variable: 'INVITE_RATE_LIMIT',
    default: 50,
    max: 100_000,
    seconds: HOUR,
    storedAs: 'inviter',
    refusal: 'Too many invitations: try again later',
    bounds: 'invitations by address the account sends',
  },
  'invites.address': {
    kind: 'stored',
    per: 'e-mail address',
    variable: 'INVITE_ADDRESS_RATE_LIMIT',
    default: 20,
    max: 100_000,
    seconds: 24 * HOUR,
    storedAs: 'address',
    refusal: 'Too many invitations: try again later',
    bounds: 'invitations the address receives, from all inviters together',
  },
  'signin.failures.client': {
    kind: 'lockout',
    per: 'e-mail and client address',
    variable: 'SIGNIN_FAILURES_PER_CLIENT',
    default: 5,
    max: 1000,
    refusal: 'Too many failed sign-ins, try again later',
    bounds:
      'failed password sign-ins in a row to one address from one client address; then each further attempt from there waits 1 s, 2 s, 4 s… up to 15 min',
  },
  'signin.failures.address': {
    kind: 'stored',
    per: 'e-mail address',
    variable: 'SIGNIN_FAILURES_PER_ADDRESS',
    default: 100,
    max: 1_000_000,
    seconds: 15 * MINUTE,
    storedAs: 'signin',
    refusal: 'Too many failed sign-ins, try again later',
    bounds:
      'failed password sign-ins to one address from all client addresses together; beyond it nobody (the owner included) signs in with a password until the window ends',
  },
  'signin.requests': {
    kind: 'auth',
    per: 'client address',
    variable: 'SIGNIN_RATE_LIMIT',
    default: 10,
    max: 100_000,
    seconds: MINUTE,
    refusal: 'Too many requests, try again later',
    bounds: 'sign-in attempts (password and the start of single sign-on); sign-up gets this or 10, whichever is higher',
  },
  'signin.routing': {
    kind: 'window',
    per: 'client address',
    variable: 'SSO_ROUTING_RATE_LIMIT',
    default: 20,
    max: 100_000,
    seconds: MINUTE,
    refusal: 'Too many requests, try again later',
    bounds: 'addresses looked up to pick their single sign-on provider (`POST /api/sign-in/sso`)',
  },
  'verification-mail.requests': {
    kind: 'auth',
    per: 'client address',
    variable: 'VERIFICATION_MAIL_RATE_LIMIT',
    default: 5,
    max: 100_000,
    seconds: MINUTE,
    refusal: 'Too many requests, try again later',
    bounds: '"send the verification mail again" requests',
  },
  'auth.requests': {
    kind: 'auth',
    per: 'client address',
    variable: 'AUTH_RATE_LIMIT',
    default: 600,
    max: 1_000_000,
    seconds: MINUTE,
    refusal: 'Too many requests, try again later',
    bounds: 'every other request to `/api/auth/*`',
  },
} as const satisfies Record<string, LimitSpec>;

export type LimitName = keyof typeof LIMITS;
type NamesOf<K extends LimitKind> = { [N in LimitName]: (typeof LIMITS)[N]['kind'] extends K ? N : never }[LimitName];
export type SlotLimit = NamesOf<'slots'>;
export type WindowLimit = NamesOf<'window'>;
export type StoredLimit = NamesOf<'stored'>;

/** The value of every limit, as configured. */
export type LimitSettings = Record<LimitName, number>;

export function spec(name: LimitName): LimitSpec {
  return LIMITS[name];
}

export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];

/** Every limit's value from the environment; `integer` reports a bad one and answers the default. */
export function readLimitSettings(
  integer: (variable: string, fallback: number, min: number, max: number) => number,
): LimitSettings {
  const settings = {} as LimitSettings;
  for (const name of LIMIT_NAMES) {
    const { variable, default: fallback, max } = spec(name);
    settings[name] = integer(variable, fallback, 1, max);
  }
  return settings;
}

/** The defaults, for code and tests that build settings without an environment. */
export function defaultLimitSettings(): LimitSettings {
  return readLimitSettings((_variable, fallback) => fallback);
}
