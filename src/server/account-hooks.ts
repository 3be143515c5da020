import type { AccountHooks } from './auth/auth.js';
import type { Deps } from './deps.js';
import { removeOwnedBoards } from './features/boards/account-removal.js';
import { announceProfile } from './features/profile/announce.js';
import { forgetAvatar } from './features/profile/avatar.service.js';
import { endStandingAccess } from './features/reclaim/reclaim.service.js';

/**
 * What the rest of the service does when an account changes, wired into the
 * sign-in library's hooks: by the service (app.ts) and by the command line
 * (cli/service.ts) alike, so an account changed from either follows one set of rules.
 */
export function wireAccountHooks(hooks: AccountHooks, deps: Omit<Deps, 'auth'>): void {
  hooks.profileChanged = (user) => announceProfile(deps, user);
  hooks.accountRemoving = (user) => removeOwnedBoards(deps, user.id);
  hooks.accountRemoved = (user) => forgetAvatar(deps, user.image);
  hooks.credentialsEnded = (ended) => {
    // An ended session is announced once: by the database where it does so itself (to this process too; no cache
    // here holds sessions, so nothing must go sooner). An account's end goes at once too: its cached key actors.
    if (ended.sessionId !== undefined && deps.database.dialect.announcesSessionEnds) return;
    deps.bus.revoke(ended);
  };
  hooks.addressReclaimed = (user) => endStandingAccess(deps, user.id);
  hooks.impersonated = (event) => deps.log.warn(event, 'administrator impersonates an account');
}
