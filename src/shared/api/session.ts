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
    description: 'the single sign-on provider, when configured (start it with POST /api/auth/sign-in/social {provider:"oidc"})',
  }),
});
export type SignInOptions = Static<typeof SignInOptions>;
