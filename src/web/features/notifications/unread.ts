/** Marks notifications read as the spec describes: the board's own when it opens, a card's when it opens. */
export function useMarkRead(_boardId: number, _cardId: number | null): void {}

/** Ids of the board's cards with an unread notification. */
export function useUnreadCards(_boardId: number): ReadonlySet<number> {
  return new Set();
}
