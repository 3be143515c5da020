import { readFileSync } from 'node:fs';

/** Who may sign in through a provider: anyone it vouches for (`any`), or only people who already have an account (`existing`). */
export type Provisioning = 'any' | 'existing';

interface ProviderBase {
  /** In the callback and ACS addresses, and in the account's link to the provider: [a-z0-9-]. */
  id: string;
  /** The button's and the messages' name: "Sign in with <name>". */
  name: string;
  /** Address domains this provider signs in (lower case); none: it is offered as a button. */
  domains: string[];
  provisioning: Provisioning;
}

export interface OidcProvider extends ProviderBase {
  type: 'oidc';
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** A claim (an array or a string) that, holding `value`, makes the account an administrator at each sign-in; lacking it, not. */
  adminGroup: { claim: string; value: string } | null;
}

export interface SamlProvider extends ProviderBase {
  type: 'saml';
  entryPoint: string;
  idpCertificate: string;
  idpIssuer: string | null;
  /** An attribute (one value or several) that, holding `value`, makes the account an administrator at each sign-in. */
  adminGroup: { attribute: string; value: string } | null;
  emailAttribute: string | null;
  nameAttribute: string | null;
}

export type SsoProvider = OidcProvider | SamlProvider;

export interface SsoConfig {
  /** Password sign-in, sign-up and resets are off: the providers (and API keys) only. */
  only: boolean;
  providers: SsoProvider[];
}

/** The id the `OIDC_*` provider has always had: its callback is `/api/auth/callback/oidc`. */
export const LEGACY_OIDC_ID = 'oidc';

const ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

type Problems = string[];
type Json = Record<string, unknown>;

/**
 * The providers of `SSO_CONFIG` (a JSON file) and of the `OIDC_*` variables
 * (one OpenID provider with the id `oidc`), checked strictly: every problem
 * goes to `problems`, each naming the provider and the field.
 */
export function readSsoConfig(
  file: string | undefined,
  legacy: OidcProvider | null,
  legacyOnly: boolean,
  problems: Problems,
): SsoConfig {
  const providers: SsoProvider[] = legacy ? [legacy] : [];
  let only = legacyOnly;
  if (file !== undefined) {
    const parsed = readJson(file, problems);
    if (parsed !== undefined) {
      const fromFile = parseSsoJson(parsed, problems);
      only ||= fromFile.only;
      providers.push(...fromFile.providers);
    }
  }
  checkUnique(providers, problems);
  if (only && providers.length === 0) problems.push('SSO_CONFIG "only" needs at least one provider');
  return { only, providers };
}

function readJson(file: string, problems: Problems): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`SSO_CONFIG: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(`SSO_CONFIG: ${file} is not JSON (${(error as Error).message})`);
    return undefined;
  }
}

/** The file's content, checked (exported for the tests). */
export function parseSsoJson(value: unknown, problems: Problems): SsoConfig {
  if (!isObject(value)) {
    problems.push('SSO_CONFIG must hold a JSON object {"providers": [...]}');
    return { only: false, providers: [] };
  }
  unknownKeys('SSO_CONFIG', value, ['only', 'providers'], problems);
  let only = false;
  if (value.only !== undefined) {
    if (typeof value.only === 'boolean') only = value.only;
    else problems.push('SSO_CONFIG "only" must be true or false');
  }
  if (!Array.isArray(value.providers)) {
    problems.push('SSO_CONFIG "providers" must be a list');
    return { only, providers: [] };
  }
  const providers: SsoProvider[] = [];
  value.providers.forEach((entry: unknown, index) => {
    const provider = parseProvider(entry, index, problems);
    if (provider) providers.push(provider);
  });
  return { only, providers };
}

function parseProvider(entry: unknown, index: number, problems: Problems): SsoProvider | null {
  const where = `SSO_CONFIG providers[${index}]`;
  if (!isObject(entry)) {
    problems.push(`${where} must be an object`);
    return null;
  }
  const id = typeof entry.id === 'string' ? entry.id : '';
  const at = id ? `SSO_CONFIG provider "${id}"` : where;
  const before = problems.length;
  if (!ID.test(id)) problems.push(`${at}: "id" must be 1 to 64 of a-z, 0-9 and - (not at either end)`);
  const text = (key: string, required: boolean): string | null => {
    const v = entry[key];
    if (v === undefined && !required) return null;
    if (typeof v !== 'string' || v.trim() === '') {
      problems.push(`${at}: "${key}" must be ${required ? 'set to ' : ''}a non-empty string`);
      return null;
    }
    return v.trim();
  };
  const name = text('name', true) ?? id;
  const domains = readDomains(entry.domains, at, problems);
  let provisioning: Provisioning = 'any';
  if (entry.provisioning !== undefined) {
    if (entry.provisioning === 'any' || entry.provisioning === 'existing') provisioning = entry.provisioning;
    else problems.push(`${at}: "provisioning" must be "any" or "existing"`);
  }
  const adminGroup = (key: 'claim' | 'attribute'): { key: string; value: string } | null => {
    const group = entry.adminGroup;
    if (group === undefined) return null;
    if (!isObject(group) || typeof group[key] !== 'string' || !group[key] || typeof group.value !== 'string' || !group.value) {
      problems.push(`${at}: "adminGroup" must be {"${key}": "...", "value": "..."}`);
      return null;
    }
    unknownKeys(`${at} adminGroup`, group, [key, 'value'], problems);
    return { key: group[key], value: group.value };
  };

  if (entry.type === 'oidc') {
    unknownKeys(
      at,
      entry,
      ['id', 'type', 'name', 'domains', 'issuer', 'clientId', 'clientSecret', 'scopes', 'provisioning', 'adminGroup'],
      problems,
    );
    const issuer = text('issuer', true)?.replace(/\/+$/, '') ?? '';
    if (issuer && !isHttpUrl(issuer)) problems.push(`${at}: "issuer" must be an http:// or https:// address (got "${issuer}")`);
    const clientId = text('clientId', true) ?? '';
    const clientSecret = text('clientSecret', true) ?? '';
    let scopes = ['openid', 'email', 'profile'];
    if (entry.scopes !== undefined) {
      if (!Array.isArray(entry.scopes) || !entry.scopes.every((s) => typeof s === 'string' && /^\S+$/.test(s))) {
        problems.push(`${at}: "scopes" must be a list of scope names`);
      } else {
        scopes = entry.scopes as string[];
        if (!scopes.includes('openid') || !scopes.includes('email'))
          problems.push(`${at}: "scopes" must include openid and email`);
      }
    }
    const group = adminGroup('claim');
    if (problems.length > before) return null;
    return {
      id,
      type: 'oidc',
      name,
      domains,
      provisioning,
      issuer,
      clientId,
      clientSecret,
      scopes,
      adminGroup: group && { claim: group.key, value: group.value },
    };
  }
  if (entry.type === 'saml') {
    unknownKeys(
      at,
      entry,
      [
        'id',
        'type',
        'name',
        'domains',
        'entryPoint',
        'idpCertificate',
        'idpIssuer',
        'provisioning',
        'adminGroup',
        'emailAttribute',
        'nameAttribute',
      ],
      problems,
    );
    const entryPoint = text('entryPoint', true) ?? '';
    if (entryPoint && !isHttpUrl(entryPoint))
      problems.push(`${at}: "entryPoint" must be an http:// or https:// address (got "${entryPoint}")`);
    const idpCertificate = text('idpCertificate', true) ?? '';
    const idpIssuer = text('idpIssuer', false);
    const emailAttribute = text('emailAttribute', false);
    const nameAttribute = text('nameAttribute', false);
    const group = adminGroup('attribute');
    if (problems.length > before) return null;
    return {
      id,
      type: 'saml',
      name,
      domains,
      provisioning,
      entryPoint,
      idpCertificate,
      idpIssuer,
      adminGroup: group && { attribute: group.key, value: group.value },
      emailAttribute,
      nameAttribute,
    };
  }
  problems.push(`${at}: "type" must be "oidc" or "saml" (got ${JSON.stringify(entry.type ?? null)})`);
  return null;
}

function readDomains(value: unknown, at: string, problems: Problems): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((d) => typeof d === 'string')) {
    problems.push(`${at}: "domains" must be a list of address domains`);
    return [];
  }
  const domains = value.map((d: string) => d.trim().toLowerCase());
  for (const domain of domains) if (!DOMAIN.test(domain)) problems.push(`${at}: "${domain}" is not an address domain`);
  return domains;
}

function checkUnique(providers: SsoProvider[], problems: Problems): void {
  const ids = new Set<string>();
  const owners = new Map<string, string>();
  for (const provider of providers) {
    if (ids.has(provider.id)) {
      problems.push(
        provider.id === LEGACY_OIDC_ID
          ? 'SSO_CONFIG: the id "oidc" is the OIDC_* provider’s: give this provider another id'
          : `SSO_CONFIG: the id "${provider.id}" is used twice`,
      );
    }
    ids.add(provider.id);
    for (const domain of provider.domains) {
      const owner = owners.get(domain);
      if (owner !== undefined)
        problems.push(`SSO_CONFIG: the domain "${domain}" is claimed by both "${owner}" and "${provider.id}"`);
      else owners.set(domain, provider.id);
    }
  }
}

function unknownKeys(at: string, value: Json, known: string[], problems: Problems): void {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    problems.push(`${at}: unknown ${unknown.length > 1 ? 'fields' : 'field'} ${unknown.map((k) => `"${k}"`).join(', ')}`);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The provider that claims the address's domain, if any. */
export function providerForAddress(config: SsoConfig, email: string): SsoProvider | undefined {
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  return config.providers.find((p) => p.domains.includes(domain));
}
