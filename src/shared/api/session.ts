import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

/**
 * The signed-in account as better-auth's `GET /api/auth/get-session` answers
 * with it (with this service's extra fields, src/server/auth/auth.ts).
 */
export const SessionUser = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  image: NullableString,
  role: Type.Optional(NullableString),
  language: Type.Optional(NullableString),
  emailVerified: Type.Optional(Type.Boolean({ description: 'false until someone proved to receive mail at the address' })),
  emailNotifications: Type.Optional(Type.Union([Type.Boolean(), Type.Integer(), Type.Null()])),
});
export type SessionUser = Static<typeof SessionUser>;

export const Session = Type.Object({
  user: SessionUser,
  session: Type.Object({ id: Type.String(), expiresAt: Type.String() }),
});
export type Session = Static<typeof Session>;

/** `GET /api/sign-in-options`: what the sign-in page offers (public, shown before anyone signs in). */
export const SignInOptions = Type.Object({
  password: Type.Boolean({ description: 'password sign-in is offered' }),
  signup: Type.Boolean({ description: 'anyone may create an account with a password' }),
  sso: Type.Union([Type.Object({ name: Type.String() }), Type.Null()], {
    description:
      'the OIDC_* single sign-on provider, when configured (start it with POST /api/auth/sign-in/social {provider:"oidc"}); kept for older clients: see `providers`',
  }),
  providers: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      type: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
      routed: Type.Boolean({ description: 'it signs in addresses of its domains: reached through POST /api/sign-in/sso' }),
    }),
    { description: 'every single sign-on provider; those not routed are offered as buttons' },
  ),
  addressRouting: Type.Boolean({
    description: 'some provider claims address domains: the sign-in page asks for the address first (POST /api/sign-in/sso)',
  }),
});
export type SignInOptions = Static<typeof SignInOptions>;

/** `POST /api/sign-in/sso`: the address whose domain picks the provider, and where to land after signing in. */
export const SsoRouteRequest = Type.Object({
  email: Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' }),
  callbackURL: Type.Optional(
    Type.String({ maxLength: 2000, pattern: '^/(?![/\\\\])', description: 'a path of this app to land on (default /)' }),
  ),
});
export type SsoRouteRequest = Static<typeof SsoRouteRequest>;

export const SsoRoute = Type.Object({
  provider: Type.Object({
    id: Type.String(),
    name: Type.String(),
    type: Type.Union([Type.Literal('oidc'), Type.Literal('saml')]),
  }),
  url: Type.String({ description: 'where the browser goes next: the provider’s sign-in page, or the SAML start on this server' }),
});
export type SsoRoute = Static<typeof SsoRoute>;
