export { nextDueDate, nthDate, type Rhythm } from '../../../shared/repeat.js';

/** The successor starts with its checklist unticked. */
export function untick(markdown: string): string {
  return markdown.replace(/^(\s*[-*+]\s+)\[[xX]\]/gm, '$1[ ]');
}
