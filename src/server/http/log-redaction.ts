import type { FastifyRequest } from 'fastify';

/**
 * Paths whose last part is a secret: an invitation or password-reset link, a
 * calendar feed or a public board link. Whoever reads the log must not be able
 * to use them.
 */
const SECRET_PATHS = /^(\/(?:invite|p|api\/public|api\/invitations|api\/auth\/reset-password|api\/ical)\/)[^/?#]+/;
/** Query parameters that carry a secret (better-auth's e-mail verification and reset links). */
const SECRET_PARAMS = /([?&](?:token|key|apiKey)=)[^&#]*/gi;
const REDACTED = '[redacted]';

/** The URL as it may be logged. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PATHS, `$1${REDACTED}`).replace(SECRET_PARAMS, `$1${REDACTED}`);
}

/** Fastify's own request serializer, with the URL redacted. */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};
