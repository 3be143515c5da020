import type { AuthContext } from 'better-auth';

/** One SAML 2.0 identity provider, as the operator configures it. */
export interface SamlProviderSettings {
  /** Short id, in the addresses below: letters, digits, `-` and `_`. */
  id: string;
  /** What the sign-in page calls it. */
  name: string;
  /** The provider's single sign-on address (HTTP-Redirect binding). */
  entryPoint: string;
  /** The provider's signing certificate, PEM (or its base64 body). */
  idpCertificate: string;
  /** When set, the assertion's Issuer must be exactly this. */
  idpIssuer?: string;
  /** The attribute holding the address; default: the usual mail attributes, else the NameID. */
  emailAttribute?: string;
  /** The attribute holding the display name; default: displayName / name attributes, else the address. */
  nameAttribute?: string;
  /** The attribute listing the person's groups (for an administrator-group policy); none by default. */
  groupAttribute?: string;
}

/** What a valid response says about the person; `admit` turns it into an account. */
export interface SamlIdentity {
  providerId: string;
  nameId: string;
  /** Lower-cased; the provider vouches for it (see README, "SAML 2.0"). */
  email: string;
  name: string;
  groups: string[];
}

/**
 * Names the account a valid response signs in, or refuses by throwing better-auth's
 * `APIError` (its `code`, lower-cased, becomes the sign-in page's `error`). The third argument
 * is better-auth's context of the request, for its `internalAdapter`.
 */
export type SamlAdmit = (
  identity: SamlIdentity,
  provider: SamlProviderSettings,
  context: { internalAdapter: AuthContext['internalAdapter'] },
) => Promise<{ id: string }>;

export interface SamlPluginOptions {
  /** BASE_URL, without a trailing slash. */
  baseUrl: string;
  admit: SamlAdmit;
}

export const SAML_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Our entity id at the provider (also the audience its assertions must name). */
export function samlEntityId(baseUrl: string, providerId: string): string {
  return `${baseUrl}/api/auth/saml/${providerId}/metadata`;
}

/** The assertion consumer service: where the provider posts its response. */
export function samlAcsUrl(baseUrl: string, providerId: string): string {
  return `${baseUrl}/api/auth/saml/${providerId}/acs`;
}

/** A path under better-auth's base path that the provider posts to, cross-site by design. */
export const SAML_ACS_PATH = /^\/api\/auth\/saml\/[A-Za-z0-9_-]{1,64}\/acs\/?(\?.*)?$/;
