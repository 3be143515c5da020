const ITEM = /^\s*[-*+]\s+\[([ xX])\]/;

/** Counts the `- [ ]` / `- [x]` lines of a card's Markdown: the tile's done/total. */
export function checklistOf(markdown: string): { done: number; total: number } {
  let done = 0;
  let total = 0;
  for (const line of markdown.split('\n')) {
    const match = ITEM.exec(line);
    if (!match) continue;
    total++;
    if (match[1] !== ' ') done++;
  }
  return { done, total };
}
