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

/** What a board file (ours or LokalBoards') holds that the import bounds count; LokalBoards may leave lists out. */
interface BoardFileShape {
  areas: Array<{ cards: Array<{ comments?: unknown[]; attachments?: unknown[]; activity?: unknown[] }> }>;
  labels?: unknown[];
}

/** The first import bound a board file goes past, as the answer says it (`what` names the file); null within them all. */
export function boardFileOverBounds(what: string, file: BoardFileShape): string | null {
  let cards = 0;
  let comments = 0;
  let attachments = 0;
  let activity = 0;
  for (const area of file.areas) {
    cards += area.cards.length;
    for (const card of area.cards) {
      comments += card.comments?.length ?? 0;
      attachments += card.attachments?.length ?? 0;
      activity += card.activity?.length ?? 0;
    }
  }
  return overBound(what, [
    ['areas', file.areas.length, importBounds.areas],
    ['cards', cards, importBounds.cards],
    ['labels', file.labels?.length ?? 0, importBounds.labels],
    ['comments', comments, importBounds.comments],
    ['attachments', attachments, importBounds.attachments],
    ['history entries', activity, importBounds.activity],
  ]);
}
