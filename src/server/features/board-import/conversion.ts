import { MAX_LABELS } from '../labels/labels.service.js';

/**
 * What the Trello and LokalBoards converters both do to the text they carry
 * over: cut to a limit, fold to one line, read a date, and keep labels.
 */

/** Cut to `max` characters without splitting a character made of two UTF-16 units. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const out = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(out) ? out.slice(0, -1) : out;
}

/** Line breaks (with the blanks around them) as one space, the ends trimmed. */
export const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ').trim();

/** A time as ISO text, or null for none or one that does not read as a time. */
export function isoOrNull(value: string | null | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** `cut` that tells `tooLong` what it cut (for the import report). */
export function fitter(tooLong: (what: string) => void): (text: string, max: number, what: string) => string {
  return (text, max, what) => {
    if (text.length > max) tooLong(what);
    return cut(text, max);
  };
}

/** A board's labels as an import keeps them: one per word (its first spelling), used ones first, up to the board's limit. */
export class LabelWords {
  private readonly words = new Map<string, { name: string; used: boolean; order: number }>();

  /** Adds a label name (used by a card or not); answers the name its word is kept under. */
  add(name: string, used: boolean): string {
    const key = name.toLowerCase();
    const known = this.words.get(key);
    if (known) {
      known.used ||= used;
      return known.name;
    }
    this.words.set(key, { name, used, order: this.words.size });
    return name;
  }

  /** The names kept, in the board's order; each one past the limit is handed to `dropped`. */
  keep(dropped: (name: string) => void): string[] {
    const ranked = [...this.words.values()].sort((a, b) => Number(b.used) - Number(a.used) || a.order - b.order);
    for (const label of ranked.slice(MAX_LABELS)) dropped(label.name);
    return ranked.slice(0, MAX_LABELS).map((l) => l.name);
  }
}
