import { MENTIONABLE_MAX, type MentionablePerson } from '../../../shared/api/mentions.js';
import { newlyMentioned } from '../../../shared/mentions.js';
import type { Actor } from '../../auth/actor.js';
import { requireBoardWithAudience } from '../../access/index.js';
import type { ServiceDeps } from '../../deps.js';
import type { WriteScope } from '../../events/board-write.js';
import * as repo from './mentions.repository.js';

/** A name folded for matching: lower case, accents dropped ("Élodie" → "elodie"). */
export function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Up to ten accounts that can read the board and whose name starts with `q`
 * (case and accents aside), by name: whom a mention on the board can name.
 * They are the board's audience (its owner and members); a public board's
 * passers-by are not listed, so the list never shows the instance's accounts.
 */
export async function listMentionable(
  deps: Pick<ServiceDeps, 'database'>,
  actor: Actor,
  boardId: number,
  q = '',
): Promise<MentionablePerson[]> {
  const { db } = deps.database;
  const { audience } = await requireBoardWithAudience(db, actor, boardId, 'read');
  const prefix = foldName(q.trim());
  const people = await repo.accountsByIds(db, audience);
  return people
    .map((person) => ({ person, key: foldName(person.name) }))
    .filter(({ key }) => key.startsWith(prefix))
    .sort((a, b) => a.key.localeCompare(b.key) || a.person.id.localeCompare(b.person.id))
    .slice(0, MENTIONABLE_MAX)
    .map(({ person }) => ({ id: person.id, name: person.name, image: person.image ?? null }));
}

/**
 * The people a change newly mentions (in `after`, not in `before`) who can
 * read the board, minus the one who wrote it: whom a `mention` notification
 * goes to. Anyone else's mention stays in the text without notice or error.
 */
export async function newlyMentionedReaders(scope: Pick<WriteScope, 'audience' | 'actor'>, before: string, after: string) {
  const added = newlyMentioned(before, after).filter((id) => id !== scope.actor.id);
  if (added.length === 0) return [];
  const readers = new Set(await scope.audience());
  return added.filter((id) => readers.has(id));
}
