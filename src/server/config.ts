import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { keepFilesPrivate } from './files/private-files.js';
import { parseTrustProxy, type TrustProxy } from './http/trust-proxy.js';
import { readLimitSettings, type LimitSettings } from './limits/catalog.js';
import { LEGACY_OIDC_ID, readSsoConfig, type OidcProvider, type SsoConfig } from './auth/sso/config.js';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt', 'cs', 'uk'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  language: Language;
  smtpUrl: string | null;
  signup: boolean;
  authSecret: string;
  maxUploadMb: number;
  archiveRetentionDays: number;
  admin: { email: string; password: string; name: string } | null;
  /** Administrators may act as another account (better-auth's impersonation), each time logged; off by default. */
  adminImpersonation: boolean;
  logLevel: string;
  /** Which X-Forwarded-For hops to believe: none, a hop count, or proxies by address. */
  trustProxy: TrustProxy;
  /** Every limit's value (limits/catalog.ts). */
  limits: LimitSettings;
  /** Memory for kept card-list answers, in MiB (0 keeps none). */
  cardListCacheMb: number;
  /** Exports (board zip, CSV, instance) one account may run at once, and the whole instance: `limits['exports.*']`, by these names for features/exports. */
  exportsPerAccount: number;
  exportsPerInstance: number;
  /** A download whose reader takes nothing for this long is dropped. */
  exportStallSeconds: number;
  /** The `OIDC_*` provider, when configured (also the first of `sso.providers`). */
  oidc: OidcConfig | null;
  /** Every single sign-on provider: `SSO_CONFIG`'s and the `OIDC_*` one; `only`: no passwords. */
  sso: SsoConfig;
  /** Webhooks may reach loopback and private addresses (a receiver on the same host or network). */
  webhookAllowPrivate: boolean;
  /** Deliveries one process sends at once (to different webhooks: each webhook gets one at a time). */
  webhookConcurrency: number;
  /** A receiver answering slower than this counts a failure toward the webhook's turning off, even with a 2xx. */
  webhookSlowMs: number;
  /** `GET /metrics`: the bearer token it asks for (none: not served on the main port), and a port of its own. */
  metrics: { token: string | null; port: number | null; host: string };
  /** Uploaded files (attachments, pictures, avatars) in an S3-compatible bucket instead of `DATA_DIR/uploads`. */
  s3: S3Config | null;
}

export interface S3Config {
  bucket: string;
  /** An S3-compatible server's address (MinIO, Ceph, R2…); none means AWS itself. */
  endpoint: string | null;
  region: string;
  /** Both or neither: without them the AWS SDK's own chain applies (AWS_* variables, an instance role). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** `endpoint/bucket/key` addresses rather than `bucket.endpoint/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's label: "Sign in with <name>". */
  name: string;
  scopes: string[];
  /** Password sign-in and sign-up are off: SSO (and API keys) only. */
  only: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/**
 * Reads the environment once, validates every value and fails with one clear
 * message per bad variable, so a typo stops the start instead of surfacing later.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes', 'on'].includes(raw)) return true;
    if (['false', '0', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  };

  const port = integer('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(read('DATA_DIR') ?? './data');

  const baseUrl = (read('BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!isHttpUrl(baseUrl)) problems.push(`BASE_URL must be an http:// or https:// address (got "${baseUrl}")`);

  const databaseUrl = read('DATABASE_URL') ?? `sqlite://${path.join(dataDir, 'tavla.db')}`;
  if (!/^(sqlite:|postgres:|postgresql:)/.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with sqlite:// or postgres://');
  }

  const languageRaw = (read('LANGUAGE') ?? 'en').toLowerCase();
  const language = LANGUAGES.find((l) => l === languageRaw);
  if (!language) problems.push(`LANGUAGE must be one of ${LANGUAGES.join(', ')} (got "${languageRaw}")`);

  const smtpUrl = read('SMTP_URL') ?? null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');

  const adminEmail = read('ADMIN_EMAIL');
  const adminPassword = read('ADMIN_PASSWORD');
  let admin: Config['admin'] = null;
  if (adminEmail || adminPassword) {
    if (!adminEmail || !adminPassword) problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
    else if (adminPassword.length < 8) problems.push('ADMIN_PASSWORD must be at least 8 characters');
    else admin = { email: adminEmail.toLowerCase(), password: adminPassword, name: read('ADMIN_NAME') ?? 'Administrator' };
  }

  const trustProxy = parseTrustProxy(read('TRUST_PROXY'));
  if ('problem' in trustProxy) problems.push(trustProxy.problem);

  const authSecretRaw = read('AUTH_SECRET');
  if (authSecretRaw !== undefined && authSecretRaw.length < 32) problems.push('AUTH_SECRET must be at least 32 characters');

  const metricsToken = read('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');

  const limits = readLimitSettings(integer);
  const oidc = readOidc(read, flag, problems);
  const sso = readSsoConfig(read('SSO_CONFIG'), oidc && legacyProvider(oidc, read, problems), oidc?.only ?? false, problems);
  const config: Config = {
    port,
    host,
    baseUrl,
    dataDir,
    databaseUrl,
    language: language ?? 'en',
    smtpUrl,
    signup: flag('SIGNUP', true),
    authSecret: '',
    maxUploadMb: integer('MAX_UPLOAD_MB', 25, 1, 10240),
    archiveRetentionDays: integer('ARCHIVE_RETENTION_DAYS', 0, 0, 36500),
    admin,
    adminImpersonation: flag('ADMIN_IMPERSONATION', false),
    logLevel: read('LOG_LEVEL') ?? 'info',
    trustProxy: 'value' in trustProxy ? trustProxy.value : false,
    limits,
    oidc,
    sso,
    cardListCacheMb: integer('CARD_LIST_CACHE_MB', 32, 0, 4096),
    exportsPerAccount: limits['exports.account'],
    exportsPerInstance: limits['exports.instance'],
    exportStallSeconds: integer('EXPORT_STALL_SECONDS', 60, 1, 3600),
    webhookAllowPrivate: flag('WEBHOOK_ALLOW_PRIVATE', false),
    webhookConcurrency: integer('WEBHOOK_CONCURRENCY', 4, 1, 64),
    // Below the delivery timeout (10 s), or it would never count anything the timeout does not.
    webhookSlowMs: integer('WEBHOOK_SLOW_MS', 5000, 100, 9999),
    metrics: {
      token: read('METRICS_TOKEN') ?? null,
      port: read('METRICS_PORT') === undefined ? null : integer('METRICS_PORT', 9464, 0, 65535),
      host: read('METRICS_HOST') ?? '127.0.0.1',
    },
    s3: readS3(read, flag, problems),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);

  // Every entry point (service, restore, tests) reads the configuration before it writes to DATA_DIR.
  keepFilesPrivate();
  config.authSecret = authSecretRaw ?? persistentSecret(dataDir);
  return config;
}

function readOidc(
  read: (name: string) => string | undefined,
  flag: (name: string, fallback: boolean) => boolean,
  problems: string[],
): OidcConfig | null {
  const issuer = read('OIDC_ISSUER')?.replace(/\/+$/, '');
  const clientId = read('OIDC_CLIENT_ID');
  const clientSecret = read('OIDC_CLIENT_SECRET');
  const only = flag('OIDC_ONLY', false);
  if (!issuer && !clientId && !clientSecret) {
    if (only) problems.push('OIDC_ONLY needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    return null;
  }
  if (!issuer || !clientId || !clientSecret) {
    problems.push('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together');
    return null;
  }
  if (!isHttpUrl(issuer)) problems.push(`OIDC_ISSUER must be an http:// or https:// address (got "${issuer}")`);
  const scopes = (read('OIDC_SCOPES') ?? 'openid email profile').split(/[\s,]+/).filter(Boolean);
  if (!scopes.includes('openid') || !scopes.includes('email')) problems.push('OIDC_SCOPES must include openid and email');
  return { issuer, clientId, clientSecret, name: read('OIDC_NAME') ?? 'SSO', scopes, only };
}

/** The `OIDC_*` provider as one of the providers; `OIDC_DOMAINS` routes addresses to it. */
function legacyProvider(oidc: OidcConfig, read: (name: string) => string | undefined, problems: string[]): OidcProvider {
  const domains = (read('OIDC_DOMAINS') ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((d) => d.toLowerCase());
  for (const domain of domains) {
    if (!/^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(domain))
      problems.push(`OIDC_DOMAINS: "${domain}" is not an address domain`);
  }
  return {
    id: LEGACY_OIDC_ID,
    type: 'oidc',
    name: oidc.name,
    domains,
    provisioning: 'any',
    issuer: oidc.issuer,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    scopes: oidc.scopes,
    adminGroup: null,
  };
}

function readS3(
  read: (name: string) => string | undefined,
  flag: (name: string, fallback: boolean) => boolean,
  problems: string[],
): S3Config | null {
  const bucket = read('S3_BUCKET');
  const endpoint = read('S3_ENDPOINT')?.replace(/\/+$/, '') ?? null;
  const accessKeyId = read('S3_ACCESS_KEY_ID') ?? null;
  const secretAccessKey = read('S3_SECRET_ACCESS_KEY') ?? null;
  const others = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'].filter(
    (name) => read(name) !== undefined,
  );
  if (!bucket) {
    if (others.length > 0) problems.push(`${others.join(', ')} ${others.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not`);
    return null;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push(`S3_BUCKET must be a bucket name (got "${bucket}")`);
  if (endpoint !== null && !isHttpUrl(endpoint))
    problems.push(`S3_ENDPOINT must be an http:// or https:// address (got "${endpoint}")`);
  if ((accessKeyId === null) !== (secretAccessKey === null))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  return {
    bucket,
    endpoint,
    region: read('S3_REGION') ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
    // A server of one's own usually has no per-bucket host names; AWS itself prefers them.
    forcePathStyle: flag('S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A secret made on first start and kept in DATA_DIR, so sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process wrote it first: theirs wins.
      return readFileSync(file, 'utf8').trim();
    }
  }
}
