import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

export interface SamlAccount {
  /** The login chosen on the provider's page, and the NameID it asserts. */
  nameId: string;
  email: string;
  name: string;
  groups?: string[];
}

/** Test keys, committed: `idp` is the provider's, `other` anyone else's (see test/fixtures/saml). */
const fixture = (file: string) => readFileSync(new URL(`./fixtures/saml/${file}`, import.meta.url), 'utf8');
const KEYS = {
  idp: { key: fixture('idp.key'), cert: fixture('idp.crt') },
  other: { key: fixture('other.key'), cert: fixture('other.crt') },
};

/** An AuthnRequest as the provider received it. */
export interface SamlRequest {
  id: string;
  acs: string;
  issuer: string;
  relayState: string;
}

/** What a hostile test changes in a response; everything else is what a well-behaved provider sends. */
export interface ResponseOptions {
  /** The request answered; null: unsolicited (no InResponseTo anywhere). */
  inResponseTo?: string | null;
  audience?: string;
  /** Both the response's Destination and the confirmation's Recipient. */
  acs?: string;
  issuer?: string;
  /** Minutes added to every time in the response (negative: an old response). */
  shiftMinutes?: number;
  /** Which part carries the signature. */
  sign?: 'assertion' | 'response' | 'none';
  /** Whose key signs: the provider's own or someone else's. */
  key?: 'idp' | 'other';
  /** Changes the XML after it was signed. */
  tamper?: (xml: string) => string;
  /** Overrides the account's attributes. */
  email?: string;
  /** InResponseTo only on the (unsigned) response, not in the signed assertion's confirmation. */
  inResponseToOutsideAssertion?: boolean;
  /** An error answer instead of an assertion, with this second-level status (e.g. AuthnFailed), unsigned as many send it. */
  status?: string;
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attribute = (name: string, values: string[]) =>
  `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
    .map(
      (v) =>
        `<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`,
    )
    .join('')}</saml:Attribute>`;

function sign(xml: string, element: 'Assertion' | 'Response', key: { key: string; cert: string }): string {
  const signer = new SignedXml({
    privateKey: key.key,
    publicCert: key.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  const xpath = element === 'Response' ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
  signer.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  // The signature goes right after the element's own Issuer, where the schema wants it.
  signer.computeSignature(xml, { location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/**
 * A SAML 2.0 identity provider on a free local port, small but real: it takes
 * an AuthnRequest by the HTTP-Redirect binding (deflated, base64), checks it
 * comes from the registered service provider for its registered ACS, and
 * answers the page a browser would get: a form that posts a signed
 * SAMLResponse for the chosen account to the ACS. The account is chosen by
 * `nextLogin`, by a `login` query parameter, or on its login page.
 */
export async function startSamlIdp(accounts: SamlAccount[]) {
  let registered: { acs: string; spEntityId: string } | null = null;
  let chosen: string | null = null;
  const requests: SamlRequest[] = [];

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? '/', issuer);
      if (req.method !== 'GET' || url.pathname !== '/sso') return void res.writeHead(404).end();
      const request = readRequest(url);
      if (!registered || request.acs !== registered.acs || request.issuer !== registered.spEntityId) {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown service provider');
      }
      requests.push(request);
      const login = url.searchParams.get('login') ?? chosen;
      chosen = null;
      if (!login) return void res.writeHead(200, { 'content-type': 'text/html' }).end(loginPage(url));
      const form = respond(request, login);
      res.writeHead(200, { 'content-type': 'text/html' }).end(postPage(request.acs, form));
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entryPoint = `${issuer}/sso`;

  function readRequest(url: URL): SamlRequest {
    const encoded = url.searchParams.get('SAMLRequest');
    if (!encoded) throw new Error('no SAMLRequest');
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    const id = /<(?:\w+:)?AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
    const acs = /\sAssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&');
    const destination = /\sDestination="([^"]+)"/.exec(xml)?.[1]?.replace(/&amp;/g, '&');
    const sp = /<(?:\w+:)?Issuer\b[^>]*>([^<]+)<\//.exec(xml)?.[1]?.replace(/&amp;/g, '&');
    if (!id || !acs || !sp) throw new Error('not an AuthnRequest');
    if (destination !== entryPoint) throw new Error(`AuthnRequest for ${destination}, not ${entryPoint}`);
    return { id, acs, issuer: sp, relayState: url.searchParams.get('RelayState') ?? '' };
  }

  function loginPage(url: URL): string {
    const hidden = [...url.searchParams]
      .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
      .join('');
    const options = accounts.map((a) => `<option value="${escape(a.nameId)}">${escape(a.name)}</option>`).join('');
    return `<!doctype html><form method="get" action="/sso">${hidden}<select name="login">${options}</select><button>Sign in</button></form>`;
  }

  /** The SAMLResponse for `login` answering `request`, as `options` has it. */
  function respond(
    request: Pick<SamlRequest, 'id' | 'relayState'>,
    login: string,
    options: ResponseOptions = {},
  ): { SAMLResponse: string; RelayState: string } {
    const account = accounts.find((a) => a.nameId === login);
    if (!account) throw new Error(`no account ${login}`);
    if (!registered) throw new Error('no service provider registered');
    const shift = (options.shiftMinutes ?? 0) * 60_000;
    const at = (minutes: number) => new Date(Date.now() + shift + minutes * 60_000).toISOString();
    const acs = options.acs ?? registered.acs;
    const audience = options.audience ?? registered.spEntityId;
    const from = options.issuer ?? issuer;
    const inResponseTo = options.inResponseTo === undefined ? request.id : options.inResponseTo;
    const replyTo = inResponseTo === null ? '' : ` InResponseTo="${escape(inResponseTo)}"`;
    const responseId = `_r${randomBytes(16).toString('hex')}`;
    const assertionId = `_a${randomBytes(16).toString('hex')}`;
    const attributes = [
      attribute('email', [options.email ?? account.email]),
      attribute('displayName', [account.name]),
      ...(account.groups?.length ? [attribute('groups', account.groups)] : []),
    ].join('');
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
      `<saml:Issuer>${escape(from)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escape(account.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData${options.inResponseToOutsideAssertion ? '' : replyTo} NotOnOrAfter="${at(5)}" Recipient="${escape(acs)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${at(-1)}" NotOnOrAfter="${at(5)}">` +
      `<saml:AudienceRestriction><saml:Audience>${escape(audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${assertionId}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
      `</saml:Assertion>`;
    if (options.status) {
      const failed =
        `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
        `ID="${responseId}" Version="2.0" IssueInstant="${at(0)}" Destination="${escape(acs)}"${replyTo}>` +
        `<saml:Issuer>${escape(from)}</saml:Issuer><samlp:Status>` +
        `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder">` +
        `<samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:${escape(options.status)}"/></samlp:StatusCode>` +
        `<samlp:StatusMessage>The person may not use this application</samlp:StatusMessage></samlp:Status></samlp:Response>`;
      return { SAMLResponse: Buffer.from(failed, 'utf8').toString('base64'), RelayState: request.relayState };
    }
    const sign_ = options.sign ?? 'assertion';
    const key = KEYS[options.key ?? 'idp'];
    const signedAssertion = sign_ === 'assertion' ? sign(assertion, 'Assertion', key) : assertion;
    let xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="${responseId}" Version="2.0" IssueInstant="${at(0)}" Destination="${escape(acs)}"${replyTo}>` +
      `<saml:Issuer>${escape(from)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      signedAssertion.replace(/^<\?xml[^>]*>/, '') +
      `</samlp:Response>`;
    if (sign_ === 'response') xml = sign(xml, 'Response', key);
    if (options.tamper) xml = options.tamper(xml);
    return { SAMLResponse: Buffer.from(xml, 'utf8').toString('base64'), RelayState: request.relayState };
  }

  return {
    entryPoint,
    issuer,
    certificate: KEYS.idp.cert,
    /** The service provider this provider answers: its ACS and entity id. */
    register(acs: string, spEntityId: string) {
      registered = { acs, spEntityId };
    },
    /** The account the next sign-in request signs in, without the login page. */
    nextLogin(nameId: string) {
      chosen = nameId;
    },
    /** Every AuthnRequest received, oldest first. */
    requests,
    respond,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type SamlIdp = Awaited<ReturnType<typeof startSamlIdp>>;

/** The provider's auto-posting page, as a browser would get it. */
function postPage(acs: string, form: { SAMLResponse: string; RelayState: string }): string {
  return (
    `<!doctype html><html><body onload="document.forms[0].submit()">` +
    `<form method="post" action="${escape(acs)}">` +
    `<input type="hidden" name="SAMLResponse" value="${escape(form.SAMLResponse)}">` +
    `<input type="hidden" name="RelayState" value="${escape(form.RelayState)}">` +
    `<noscript><button>Continue</button></noscript></form></body></html>`
  );
}

/** The form of the provider's auto-posting page: where it posts, and what. */
export function readPostPage(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in ${html.slice(0, 200)}`);
  const unescape = (v: string) =>
    v
      .replace(/&quot;/g, '"')
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[unescape(match[1]!)] = unescape(match[2]!);
  }
  return { action: unescape(action), fields };
}
