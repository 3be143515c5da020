/*
 * Who may do what: the one door into access/ for the rest of the server.
 * Inside, level.ts holds the rules and imports nothing of access/;
 * audience.ts writes them for queries and sets of accounts, policy.ts for one
 * request's check; neither imports the other's callers, so there is no cycle.
 * archived.ts holds the 409 for changing an archived thing.
 * The read caches (read-caches.ts, board-access-cache.ts,
 * cache-invalidation.ts) are the app's wiring, imported where the app is
 * built, not rules: they stay out of this face.
 */
export { archived, unarchivedBoard } from './archived.js';
export { atLeast, isAdmin, levelOf, requireAdmin, type Level, type RequiredLevel } from './level.js';
export {
  boardIdForWrite,
  boardIdOf,
  missing,
  requireArea,
  requireBoard,
  requireBoardWithAudience,
  type BoardAccess,
  type Subject,
} from './policy.js';
export {
  audienceOf,
  boardAudience,
  boardReaders,
  boardsJoinedBy,
  joinedBy,
  membersOfBoard,
  ownedBy,
  readableBy,
  readableFrom,
  sharedWith,
  sharesBoardWith,
} from './audience.js';
