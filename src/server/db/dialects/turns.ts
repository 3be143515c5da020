const turns = new Map<number, Promise<unknown>>();

/**
 * Writes to one board take turns within this process before they ask the
 * database for a connection and the board's row lock: waiting here costs
 * nothing, while waiting on the lock holds a pooled connection. Across
 * processes the row lock still decides.
 */
export function takeTurns<T>(boardId: number, work: () => Promise<T>): Promise<T> {
  const previous = turns.get(boardId) ?? Promise.resolve();
  const mine = previous.then(work, work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(boardId, settled);
  void settled.then(() => {
    if (turns.get(boardId) === settled) turns.delete(boardId);
  });
  return mine;
}
