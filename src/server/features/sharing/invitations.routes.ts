import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody } from '../../../shared/api/common.js';
import { InvitationInfo } from '../../../shared/api/sharing.js';
import { identify, identifyKeyedCallers } from '../../auth/identify.js';
import { providerNames } from '../../auth/sso.js';
import type { Deps } from '../../deps.js';
import { HttpError, badRequest, forbidden } from '../../http/errors.js';
import { idempotentWrites } from '../../http/idempotency.js';
import { invitedAccountExists, joinByInvitation, readInvitation, removeUnjoinedAccount } from './invitations.js';

const Token = Type.Object({ token: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

/**
 * The link an invited address receives: no account needed to look at it;
 * following it creates the account (even with sign-up closed) or, for a
 * signed-in account of that address, joins the board directly.
 */
export function invitationRoutes(app: FastifyInstance, deps: Deps): void {
  // A signed-in join is a board write: with `Idempotency-Key` its repeat gets the first answer (creating an account has nobody to own a key).
  void app.register((scope, _options, done) => {
    identifyKeyedCallers(scope, deps);
    idempotentWrites(scope, deps.database.db);
    routes(scope, deps);
    done();
  });
}

function routes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

  r.get(
    '/api/invitations/:token',
    {
      schema: {
        tags: ['Sharing'],
        summary: 'What an invitation link is for',
        params: Token,
        response: { 200: InvitationInfo, ...errors },
      },
    },
    async (request) => {
      const { email, boardName, permission } = await readInvitation(deps, request.params.token);
      return { email, boardName, permission };
    },
  );

  r.post(
    '/api/invitations/:token/accept',
    {
      schema: {
        tags: ['Sharing'],
        summary: 'Use an invitation link: create the account (name, password) or, signed in, just join',
        params: Token,
        body: Type.Object({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
        }),
        response: { 200: Type.Object({ boardId: Type.Integer() }), ...errors },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      // Only a signed-in person joins as themselves: an API key cannot accept an invitation.
      const caller = await identify(request, deps, { accept: 'session' });
      if (caller?.email !== undefined) {
        return { boardId: await joinByInvitation(deps, token, { ...caller, email: caller.email }) };
      }
      const invitation = await readInvitation(deps, token);

      // With OIDC_ONLY (or SSO_CONFIG's `only`) nobody gets a password: the invitee signs in through a provider and opens the link again.
      if (deps.config.sso.only) {
        throw forbidden(
          `Password sign-in is turned off: sign in with ${providerNames(deps.config.sso)}, then open the link again`,
        );
      }
      const name = request.body.name?.trim();
      const { password } = request.body;
      if (!name || !password) throw badRequest('body: name and password are required to create the account');
      if (await invitedAccountExists(deps, invitation.email)) {
        throw new HttpError(409, 'An account with this address exists: sign in, then open the link again');
      }
      const ctx = await deps.auth.$context;
      const user = await ctx.internalAdapter.createUser(
        { email: invitation.email, name, emailVerified: true },
        { method: 'email-password' },
      );
      await ctx.internalAdapter.linkAccount({
        userId: user.id,
        providerId: 'credential',
        accountId: user.id,
        password: await ctx.password.hash(password),
      });
      let boardId: number;
      try {
        boardId = await joinByInvitation(deps, token, {
          id: user.id,
          name,
          image: null,
          role: 'user',
          via: 'session',
          readOnly: false,
          email: invitation.email,
        });
      } catch (error) {
        // The link was used meanwhile: no account is left behind.
        await removeUnjoinedAccount(deps, user.id);
        throw error;
      }
      const signedIn = await deps.auth.api.signInEmail({ body: { email: invitation.email, password }, asResponse: true });
      const cookies = signedIn.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return { boardId };
    },
  );
}
