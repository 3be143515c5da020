import type { FastifyInstance } from 'fastify';
import { SAML_ACS_PATH } from './settings.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * What the HTTP layer must allow for SAML's HTTP-POST binding, and nothing more.
 * Call it before `refuseCrossSiteWrites` (its hook must run first).
 *
 * - The provider's page posts the response to the ACS as a form, cross-site by
 *   design. Form bodies stay refused (415) on every other path; on the ACS they
 *   are parsed into `{ SAMLResponse, RelayState }`.
 * - The ACS reads no cookie: its request is proven by the provider's signature
 *   and the single-use RelayState, and the browser is bound at the next step.
 *   Its Cookie header is dropped before anything looks at it, so neither the
 *   cross-site write check here nor better-auth's origin check (both apply only
 *   to requests carrying cookies, the ones a forged post could ride on) stops
 *   the provider's post, and nothing could ride on a cookie there anyway.
 */
export function acceptSamlPosts(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'POST' && SAML_ACS_PATH.test(request.url)) delete request.headers.cookie;
    done();
  });
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: 1024 * 1024 }, (request, text, done) => {
    if (!SAML_ACS_PATH.test(request.url)) {
      const error = new Error(`Unsupported Media Type: ${FORM}`) as Error & { statusCode: number };
      error.statusCode = 415;
      return done(error, undefined);
    }
    const params = new URLSearchParams(typeof text === 'string' ? text : text.toString('utf8'));
    const body: Record<string, string> = {};
    for (const name of ['SAMLResponse', 'RelayState']) {
      const value = params.get(name);
      if (value !== null) body[name] = value;
    }
    done(null, body);
  });
}
