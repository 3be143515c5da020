// The same reading of a description as `checklistOf` (src/shared/checklist.ts): task lines outside fenced code.
const ITEM = /^(\s*[-*+]\s+\[)([ xX])(\](?:\s|$))/;
const FENCE = /^\s*(```|~~~)/;

/**
 * Ticks or unticks the `index`-th checklist item (counting from 0, in the
 * order the preview draws the boxes) and answers the new Markdown.
 */
export function toggleChecklistItem(markdown: string, index: number, checked: boolean): string {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  let n = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const opens = FENCE.exec(line)?.[1];
    if (opens) {
      if (fence === null) fence = opens;
      else if (opens === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const match = ITEM.exec(line);
    if (!match) continue;
    if (n === index) {
      lines[i] = line.replace(ITEM, `$1${checked ? 'x' : ' '}$3`);
      return lines.join('\n');
    }
    n++;
  }
  return markdown;
}
