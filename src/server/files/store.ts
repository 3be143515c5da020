import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { DiskStore } from './disk-store.js';
import type { FileStore } from './file-store.js';
import { S3Store } from './s3-store.js';

export {
  FileStore,
  isStoredName,
  UploadInterrupted,
  UploadTooLarge,
  type OpenedFile,
  type SavedFile,
  type SaveOptions,
} from './file-store.js';

export type FilesConfig = Pick<Config, 'dataDir' | 's3'>;

const stores = new Map<string, FileStore>();

/**
 * The one file store of this configuration: the bucket when `S3_BUCKET` is
 * set, else `DATA_DIR/uploads`. One per process and place, so its client and
 * connections are shared by every request.
 */
export function fileStore(config: FilesConfig): FileStore {
  const key = config.s3 ? `s3:${JSON.stringify(config.s3)}:${config.dataDir}` : `disk:${config.dataDir}`;
  let store = stores.get(key);
  if (!store) stores.set(key, (store = config.s3 ? new S3Store(config.s3, config.dataDir) : new DiskStore(config.dataDir)));
  return store;
}

/** Removes these stored files once the transaction that dropped their rows has committed, unless something still uses them. */
export function discardAfterCommit(
  afterCommit: (work: () => Promise<void>) => void,
  deps: { config: FilesConfig; database: { db: Db } },
  storedNames: Array<string | null>,
): void {
  const names = storedNames.filter((n): n is string => n !== null);
  if (names.length > 0) afterCommit(() => fileStore(deps.config).removeIfUnreferenced(deps.database.db, names));
}

/** The lower-case extension of a file name when it is short and plain (`report.PDF` → `pdf`), else null. */
export function extensionOf(filename: string): string | null {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename);
  return match ? match[1]!.toLowerCase() : null;
}

const MAX_FILENAME = 255;
/** Control characters, line and paragraph separators, and the bidirectional overrides used to disguise extensions. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name that is safe to store and to show: the last path segment only,
 * no control characters, NFC, at most 255 characters with the extension kept,
 * never empty.
 */
export function safeFilename(raw: string | null | undefined): string {
  const segments = (raw ?? '').normalize('NFC').replace(UNSAFE_CHARS, '').split(/[/\\]/);
  let name = '';
  for (let i = segments.length - 1; i >= 0 && name === ''; i--) name = segments[i]!.trim();
  if (name === '' || /^\.+$/.test(name)) name = 'file';
  const chars = Array.from(name);
  if (chars.length <= MAX_FILENAME) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(name.slice(dot)) : [];
  const keep = extension.length > 0 && extension.length <= 32 ? extension : [];
  return (
    chars
      .slice(0, MAX_FILENAME - keep.length)
      .join('')
      .trimEnd() + keep.join('')
  );
}

/**
 * `Content-Disposition: attachment` for a file name: a plain ASCII fallback
 * for old clients and the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const name = safeFilename(filename);
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\%;/]/g, '_')
      .trim() || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
