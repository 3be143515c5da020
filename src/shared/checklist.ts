// A task item as the Markdown renderer draws one: a list bullet, the box, then a space or the end of the line.
const ITEM = /^(\s*[-*+]\s+\[)([ xX])(\](?:\s|$))/;
const FENCE = /^\s*(```|~~~)/;

/** The task lines of a card's Markdown, in the order the preview draws the boxes; lines in fenced code are text. */
function* taskLines(lines: string[]): Generator<{ line: number; checked: boolean }> {
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const opens = FENCE.exec(lines[i]!)?.[1];
    if (opens) {
      if (fence === null) fence = opens;
      else if (opens === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const match = ITEM.exec(lines[i]!);
    if (match) yield { line: i, checked: match[2] !== ' ' };
  }
}

/** Counts the `- [ ]` / `- [x]` lines of a card's Markdown: the tile's done/total. */
export function checklistOf(markdown: string): { done: number; total: number } {
  let done = 0;
  let total = 0;
  for (const task of taskLines(markdown.split('\n'))) {
    total++;
    if (task.checked) done++;
  }
  return { done, total };
}

/** Ticks or unticks the `index`-th checklist item (counting from 0) and answers the new Markdown. */
export function toggleChecklistItem(markdown: string, index: number, checked: boolean): string {
  const lines = markdown.split('\n');
  let n = 0;
  for (const task of taskLines(lines)) {
    if (n++ !== index) continue;
    lines[task.line] = lines[task.line]!.replace(ITEM, `$1${checked ? 'x' : ' '}$3`);
    return lines.join('\n');
  }
  return markdown;
}
