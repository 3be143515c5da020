/** The sign-in lockout is one of the limits (limits/signin-lockout.ts); the job runner prunes it through this name. */
export { pruneSignInFailures } from '../limits/signin-lockout.js';
