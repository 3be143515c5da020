import { safeFilename } from '../files/store.js';

/** Names in zips: made safe to write, checked before they are read. */

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
