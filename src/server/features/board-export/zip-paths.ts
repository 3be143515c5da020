import { safeSegment } from '../../zip/names.js';

/**
 * Names inside export zips. Every name is built from safe pieces (no `..`,
 * no absolute path, no control characters), and made unique by construction:
 * a board's entries carry the board id, an attachment's its attachment id,
 * a picture its random stored name. No registry of used names is kept, so
 * memory does not grow with the number of entries.
 */

/** `<name>` in file names: NFKD, diacritics stripped, lower case, runs of non-[a-z0-9] → `-`, trimmed, at most 48, never empty. */
export function slug(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return plain === '' ? 'board' : plain;
}

/** `YYYY-MM-DD` of a moment, in UTC. */
export function utcDate(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

/** `<id>-<slug>`: the stem of a board's JSON file and of its files folder. */
export function boardStem(board: { id: number; name: string }): string {
  return `${board.id}-${slug(board.name)}`;
}

/** The zip path of an attachment's file inside a board's files folder: `<folder>/<attachment id>-<original filename>`. */
export function attachmentPath(folder: string, attachment: { id: number; filename: string }): string {
  return `${folder}/${attachment.id}-${safeSegment(attachment.filename)}`;
}

/** The zip path of a pasted picture: `<folder>/images/<stored name>` (stored names are random hex, safe as they are). */
export function imagePath(folder: string, storedName: string): string {
  return `${folder}/images/${safeSegment(storedName)}`;
}
