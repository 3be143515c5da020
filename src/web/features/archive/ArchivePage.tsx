/** The archive of one board (archived areas and cards) — built by the archive feature. */
export function BoardArchivePage() {
  return null;
}

/** The archived boards the account owns. */
export function ArchivedBoardsPage() {
  return null;
}
