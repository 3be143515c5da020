import { boardsJoinedBy } from '../../access/index.js';
import { accountChanged } from '../../access/read-caches.js';
import type { ServiceDeps } from '../../deps.js';
import { systemWrite } from '../../events/board-write.js';

/**
 * A changed name or picture is a change to every board the account is on:
 * each gets a `person.updated` event (so viewers redraw the avatars, and
 * answers cached by board version are renewed).
 */
export async function announceProfile(
  deps: ServiceDeps,
  user: { id: string; name: string; image?: string | null | undefined },
): Promise<void> {
  // Its keys' cached actors carry the old name, picture and role.
  accountChanged(deps.database, user.id);
  const boards = await boardsJoinedBy(deps.database.db, user.id);
  const person = { id: user.id, name: user.name, image: user.image ?? null };
  for (const id of boards) {
    await systemWrite(deps, id, (scope) => {
      scope.emit('person.updated', { person });
      return Promise.resolve();
    });
  }
}
