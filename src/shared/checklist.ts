// A task item as the Markdown renderer draws one: a list bullet, the box, then a space or the end of the line.
const ITEM = /^\s*[-*+]\s+\[([ xX])\](?:\s|$)/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Counts the `- [ ]` / `- [x]` lines of a card's Markdown: the tile's
 * done/total. Lines inside fenced code blocks are text, not tasks.
 */
export function checklistOf(markdown: string): { done: number; total: number } {
  let done = 0;
  let total = 0;
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opens = FENCE.exec(line)?.[1];
    if (opens) {
      if (fence === null) fence = opens;
      else if (opens === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const match = ITEM.exec(line);
    if (!match) continue;
    total++;
    if (match[1] !== ' ') done++;
  }
  return { done, total };
}
