import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { parseSsoJson, providerForAddress } from './config.js';

const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
const corp = {
  id: 'corp',
  type: 'oidc',
  name: 'Corp ID',
  domains: ['Corp.Example'],
  issuer: 'https://id.corp.example/',
  clientId: 'tavla',
  clientSecret: 'secret',
  adminGroup: { claim: 'groups', value: 'tavla-admins' },
};
const legacy = {
  id: 'legacy',
  type: 'saml',
  name: 'Legacy IdP',
  domains: ['legacy.example'],
  entryPoint: 'https://idp.legacy.example/sso',
  idpCertificate: CERT,
  provisioning: 'existing',
  adminGroup: { attribute: 'memberOf', value: 'cn=admins' },
};

function problemsOf(value: unknown): string[] {
  const problems: string[] = [];
  parseSsoJson(value, problems);
  return problems;
}

function withFile(content: unknown, env: Record<string, string> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tavla-sso-config-')), 'sso.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return () => loadConfig({ DATA_DIR: path.dirname(file), AUTH_SECRET: 'x'.repeat(32), SSO_CONFIG: file, ...env });
}

describe('SSO_CONFIG', () => {
  it('reads OpenID and SAML providers, with their defaults', () => {
    const config = withFile({ providers: [corp, legacy] })();
    expect(config.sso.only).toBe(false);
    expect(config.sso.providers).toEqual([
      {
        id: 'corp',
        type: 'oidc',
        name: 'Corp ID',
        domains: ['corp.example'],
        provisioning: 'any',
        issuer: 'https://id.corp.example',
        clientId: 'tavla',
        clientSecret: 'secret',
        scopes: ['openid', 'email', 'profile'],
        adminGroup: { claim: 'groups', value: 'tavla-admins' },
      },
      {
        id: 'legacy',
        type: 'saml',
        name: 'Legacy IdP',
        domains: ['legacy.example'],
        provisioning: 'existing',
        entryPoint: 'https://idp.legacy.example/sso',
        idpCertificate: CERT,
        idpIssuer: null,
        adminGroup: { attribute: 'memberOf', value: 'cn=admins' },
        emailAttribute: null,
        nameAttribute: null,
      },
    ]);
    expect(providerForAddress(config.sso, 'Ada@CORP.example')?.id).toBe('corp');
    expect(providerForAddress(config.sso, 'x@legacy.example')?.id).toBe('legacy');
    expect(providerForAddress(config.sso, 'x@sub.corp.example')).toBeUndefined();
  });

  it('keeps the OIDC_* provider as one more, with the id oidc; OIDC_DOMAINS routes to it', () => {
    const config = withFile(
      { providers: [corp] },
      {
        OIDC_ISSUER: 'https://id.example',
        OIDC_CLIENT_ID: 'a',
        OIDC_CLIENT_SECRET: 'b',
        OIDC_DOMAINS: 'old.example, Older.example',
      },
    )();
    expect(config.sso.providers.map((p) => [p.id, p.domains])).toEqual([
      ['oidc', ['old.example', 'older.example']],
      ['corp', ['corp.example']],
    ]);
    expect(() =>
      withFile(
        { providers: [{ ...corp, id: 'oidc' }] },
        { OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' },
      )(),
    ).toThrow(/the id "oidc" is the OIDC_\* provider’s/);
  });

  it('refuses a file it cannot read or parse, naming it', () => {
    expect(withFile('{ not json')).toThrow(/SSO_CONFIG: .*sso\.json is not JSON/);
    expect(() =>
      loadConfig({ DATA_DIR: '/nonexistent-tavla', AUTH_SECRET: 'x'.repeat(32), SSO_CONFIG: '/nonexistent-tavla/sso.json' }),
    ).toThrow(/SSO_CONFIG: cannot read \/nonexistent-tavla\/sso\.json \(ENOENT\)/);
  });

  it('lists every problem at once, each naming the provider and the field', () => {
    expect(problemsOf([])).toEqual(['SSO_CONFIG must hold a JSON object {"providers": [...]}']);
    expect(problemsOf({ providers: {} })).toEqual(['SSO_CONFIG "providers" must be a list']);
    expect(problemsOf({ providers: [], extra: 1, only: 'yes' })).toEqual([
      'SSO_CONFIG: unknown field "extra"',
      'SSO_CONFIG "only" must be true or false',
    ]);
    expect(problemsOf({ providers: [{ ...corp, type: 'ldap' }] })).toEqual([
      'SSO_CONFIG provider "corp": "type" must be "oidc" or "saml" (got "ldap")',
    ]);
    expect(problemsOf({ providers: [{ ...corp, id: 'Corp_ID' }] })).toEqual([
      'SSO_CONFIG provider "Corp_ID": "id" must be 1 to 64 of a-z, 0-9 and - (not at either end)',
    ]);
    expect(problemsOf({ providers: [{ ...corp, issuer: 'ftp://id.example', clientSecret: '' }] })).toEqual([
      'SSO_CONFIG provider "corp": "issuer" must be an http:// or https:// address (got "ftp://id.example")',
      'SSO_CONFIG provider "corp": "clientSecret" must be set to a non-empty string',
    ]);
    const { entryPoint: _entryPoint, idpCertificate: _cert, ...bareSaml } = legacy;
    expect(problemsOf({ providers: [{ ...bareSaml, provisioning: 'some', colour: 'red' }] })).toEqual([
      'SSO_CONFIG provider "legacy": "provisioning" must be "any" or "existing"',
      'SSO_CONFIG provider "legacy": unknown field "colour"',
      'SSO_CONFIG provider "legacy": "entryPoint" must be set to a non-empty string',
      'SSO_CONFIG provider "legacy": "idpCertificate" must be set to a non-empty string',
    ]);
    expect(problemsOf({ providers: [{ ...corp, adminGroup: { attribute: 'groups', value: 'x' } }] })).toEqual([
      'SSO_CONFIG provider "corp": "adminGroup" must be {"claim": "...", "value": "..."}',
    ]);
    expect(problemsOf({ providers: [{ ...corp, scopes: ['openid'], domains: ['not a domain'] }] })).toEqual([
      'SSO_CONFIG provider "corp": "not a domain" is not an address domain',
      'SSO_CONFIG provider "corp": "scopes" must include openid and email',
    ]);
    expect(problemsOf({ providers: ['corp'] })).toEqual(['SSO_CONFIG providers[0] must be an object']);
  });

  it('refuses an id used twice and a domain claimed twice', () => {
    expect(withFile({ providers: [corp, { ...legacy, id: 'corp' }] })).toThrow(/the id "corp" is used twice/);
    expect(withFile({ providers: [corp, { ...legacy, domains: ['corp.example'] }] })).toThrow(
      /the domain "corp.example" is claimed by both "corp" and "legacy"/,
    );
  });

  it('"only" turns passwords off, and needs a provider', () => {
    expect(withFile({ only: true, providers: [corp] })().sso.only).toBe(true);
    expect(withFile({ only: true, providers: [] })).toThrow(/"only" needs at least one provider/);
  });
});
