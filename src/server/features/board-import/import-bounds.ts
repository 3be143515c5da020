/**
 * How much one import may hold, in either format (our board file or a Trello
 * export). Generous for real boards (Trello itself keeps a board to 5,000 open
 * cards and its JSON export to the last 1,000 actions), and small enough that
 * the largest allowed import converts and writes in seconds while the
 * service keeps answering. Beyond any of them the import is refused (400)
 * before anything is written. README, "Import", lists them.
 */
export const importBounds = {
  /** Areas (Trello: lists). */
  areas: 2_000,
  cards: 20_000,
  /** Trello checklists (ours live in the card's Markdown). */
  checklists: 20_000,
  /** Items of all Trello checklists together. */
  checklistItems: 100_000,
  /** Entries of the file's label list (what the board keeps is capped lower: see MAX_LABELS). */
  labels: 1_000,
  comments: 20_000,
  /** Attachments of all cards together (our board file). */
  attachments: 20_000,
  /** History entries of all cards together (our board file). */
  activity: 200_000,
} as const;

/** `"<what> holds more than <limit> <name> (the import limit)"` for the first count past its limit, else null. */
export function overBound(what: string, counts: Array<[name: string, count: number, limit: number]>): string | null {
  const over = counts.find(([, count, limit]) => count > limit);
  return over ? `${what} holds more than ${over[2].toLocaleString('en')} ${over[0]} (the import limit)` : null;
}
