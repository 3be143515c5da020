import { safeFilename } from '../../files/store.js';

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

/** Characters some unpackers refuse or read as path syntax (Windows), beside the separators. */
const AWKWARD = /[<>:"|?*\\/]/g;
/** The longest name kept for one path segment, in UTF-8 bytes (most file systems allow 255). */
const MAX_SEGMENT_BYTES = 200;

/**
 * One path segment made safe: control characters and bidi overrides gone
 * (`safeFilename`), separators and characters Windows refuses replaced with
 * `_`, never `.` or `..`, at most 200 bytes with the extension kept.
 */
export function safeSegment(raw: string): string {
  let name = safeFilename(raw.replace(AWKWARD, '_')).replace(AWKWARD, '_');
  if (/^\.+$/.test(name)) name = name.replace(/\./g, '_');
  if (Buffer.byteLength(name) <= MAX_SEGMENT_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = Array.from(name.slice(0, name.length - extension.length));
  while (stem.length > 0 && Buffer.byteLength(stem.join('') + extension) > MAX_SEGMENT_BYTES) stem = stem.slice(0, -1);
  return stem.join('').trimEnd() + extension;
}

/** The zip path of an attachment's file inside a board's files folder: `<folder>/<attachment id>-<original filename>`. */
export function attachmentPath(folder: string, attachment: { id: number; filename: string }): string {
  return `${folder}/${attachment.id}-${safeSegment(attachment.filename)}`;
}

/** The zip path of a pasted picture: `<folder>/images/<stored name>` (stored names are random hex, safe as they are). */
export function imagePath(folder: string, storedName: string): string {
  return `${folder}/images/${safeSegment(storedName)}`;
}

/**
 * Whether a name read from a zip may be used: relative, no `..` segment, no
 * drive letter, no backslash, no control characters.
 */
export function isSafeEntryName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return false;
  return name
    .split('/')
    .every((segment, i, all) => segment !== '..' && segment !== '.' && (segment !== '' || i === all.length - 1));
}
