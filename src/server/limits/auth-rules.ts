import { spec, type LimitSettings } from './catalog.js';

const seconds = (name: Parameters<typeof spec>[0]) => spec(name).seconds ?? 60;

/**
 * The `auth` limits of the catalog as better-auth's rate limit, which counts
 * them per client address in the database (so every process behind one
 * address shares the count) and groups IPv6 by /64 like the rest.
 */
export function betterAuthRateLimit(settings: LimitSettings) {
  const signIn = { window: seconds('signin.requests'), max: settings['signin.requests'] };
  return {
    enabled: true,
    storage: 'database' as const,
    window: seconds('auth.requests'),
    max: settings['auth.requests'],
    customRules: {
      '/sign-in/email': signIn,
      // Sign-up at least 10 a minute: a household or office behind one address signs up together.
      '/sign-up/email': { ...signIn, max: Math.max(signIn.max, 10) },
      // Starting single sign-on proves nothing by itself (the provider checks the person): the sign-in limit is plenty.
      '/sign-in/social': signIn,
      // Starting a SAML sign-in: the same.
      '/saml/*/login': signIn,
      // Each one mails an address.
      '/send-verification-email': {
        window: seconds('verification-mail.requests'),
        max: settings['verification-mail.requests'],
      },
    },
  };
}
