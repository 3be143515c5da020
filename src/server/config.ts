import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
  logLevel: string;
  /** Trust X-Forwarded-For from a reverse proxy in front of the service. */
  trustProxy: boolean;
  /** Sign-in attempts allowed per client address per minute. */
  signInRateLimit: number;
  /** Exports (board zip, CSV, instance) one account may run at once, and the whole instance. */
  exportsPerAccount: number;
  exportsPerInstance: number;
  /** A download whose reader takes nothing for this long is dropped. */
  exportStallSeconds: number;
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

  const authSecretRaw = read('AUTH_SECRET');
  if (authSecretRaw !== undefined && authSecretRaw.length < 32) problems.push('AUTH_SECRET must be at least 32 characters');

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
    logLevel: read('LOG_LEVEL') ?? 'info',
    trustProxy: flag('TRUST_PROXY', false),
    signInRateLimit: integer('SIGNIN_RATE_LIMIT', 10, 1, 100000),
    exportsPerAccount: integer('EXPORTS_PER_ACCOUNT', 2, 1, 100),
    exportsPerInstance: integer('EXPORTS_PER_INSTANCE', 4, 1, 100),
    exportStallSeconds: integer('EXPORT_STALL_SECONDS', 60, 1, 3600),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);

  config.authSecret = authSecretRaw ?? persistentSecret(dataDir);
  return config;
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
