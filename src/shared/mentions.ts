/**
 * Mentions in comments and card descriptions are written
 * `@[Display Name](userId)` (the id may stand in angle brackets, as Markdown
 * allows for link addresses: `@[Display Name](<userId>)`). The web editor
 * inserts that form from its autocomplete; rendered Markdown shows a chip
 * `@Display Name`, and plain-text forms (exports, CSV, notification excerpts)
 * show `@Display Name`.
 */

/** The characters of an account id (better-auth's ids, UUIDs, seeded ids). */
const ID = '[A-Za-z0-9_-]{1,64}';
/** A display name: one line without brackets, as long as a name may be. */
const NAME = '[^\\[\\]\\n]{1,255}';

const SOURCE = `@\\[(${NAME})\\]\\((?:<(${ID})>|(${ID}))\\)`;

/** Finds every mention in a text (global: use with `matchAll` or `replace`). */
export const MENTION = new RegExp(SOURCE, 'g');

/** A mention at the start of a string (for the Markdown inline rule). */
export const MENTION_AT_START = new RegExp(`^${SOURCE}`);

export interface Mention {
  name: string;
  id: string;
}

/** The mentions of a text, in order (an account mentioned twice appears twice). */
export function mentionsIn(text: string): Mention[] {
  return [...text.matchAll(MENTION)].map((m) => ({ name: m[1]!, id: (m[2] ?? m[3])! }));
}

/** The distinct account ids a text mentions. */
export function mentionedIds(text: string): string[] {
  return [...new Set(mentionsIn(text).map((m) => m.id))];
}

/** The ids mentioned in `after` that `before` did not mention: whom an edit newly mentions. */
export function newlyMentioned(before: string, after: string): string[] {
  const known = new Set(mentionedIds(before));
  return mentionedIds(after).filter((id) => !known.has(id));
}

/** The text with every mention written as `@Display Name`, for plain-text outputs. */
export function mentionsAsText(text: string): string {
  return text.includes('@[') ? text.replace(MENTION, (_all, name: string) => `@${name}`) : text;
}

/** The form a mention is written in. Brackets and line breaks in the name are left out (they would end the form). */
export function mentionMarkup(person: { id: string; name: string }): string {
  const name = person.name.replace(/[[\]\n\r]+/g, ' ').trim() || '?';
  return `@[${name}](${person.id})`;
}
