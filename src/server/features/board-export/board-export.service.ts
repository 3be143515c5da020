import type { Stringifier } from 'csv-stringify';
import type { Db } from '../../db/database.js';
import type { BoardRow } from '../../db/schema.js';
import type { ServiceDeps } from '../../deps.js';
import { fileStore, type FileStore } from '../../files/store.js';
import { serviceVersion } from '../../version.js';
import { writeBoardFile, type ImageFile } from './board-file.js';
import { writeBoardCsv } from './csv.js';
import { boardAttachments, findBoard } from './board-export.repository.js';
import type { ZipWriter } from '../../zip/writer.js';
import { attachmentPath, boardStem } from './zip-paths.js';

export type ExportDeps = Pick<ServiceDeps, 'database' | 'config' | 'log'>;

/** The board as the export's own snapshot sees it; it may have gone since the access check. */
async function boardIn(db: Db, boardId: number): Promise<BoardRow> {
  const board = await findBoard(db, boardId);
  if (!board) throw new Error(`board ${boardId} was removed while its export started`);
  return board;
}

/**
 * One board's zip: `<id>-<name>.json`, then `attachments/<attachment id>-<filename>`
 * for every attachment whose file is there, then `attachments/images/<stored name>`
 * for the pictures the board file refers to.
 */
export async function writeBoardZip(deps: ExportDeps, boardId: number, zip: ZipWriter): Promise<void> {
  const store = fileStore(deps.config);
  const exportedAt = new Date().toISOString();
  await deps.database.snapshot(async (db) => {
    const board = await boardIn(db, boardId);
    const folder = 'attachments';
    const entry = zip.text(`${boardStem(board)}.json`);
    const images = await writeBoardFile(
      db,
      board,
      { baseUrl: deps.config.baseUrl, folder, serviceVersion, exportedAt, store },
      (text) => entry.write(text),
    );
    await entry.end();
    await addAttachments(db, board.id, folder, store, zip);
    for (const image of images) await addStored(store, zip, image);
  });
  await zip.finalize();
}

/** Fills the CSV stream of a board from one snapshot, then ends it. */
export async function writeCsv(deps: ExportDeps, boardId: number, out: Stringifier): Promise<void> {
  await deps.database.snapshot(async (db) => {
    const board = await boardIn(db, boardId);
    await writeBoardCsv(db, board, { language: deps.config.language, baseUrl: deps.config.baseUrl }, out);
  });
}

export async function addAttachments(db: Db, boardId: number, folder: string, store: FileStore, zip: ZipWriter): Promise<void> {
  for await (const attachment of boardAttachments(db, boardId)) {
    if (attachment.storedName === null) continue;
    await addStored(store, zip, { storedName: attachment.storedName, path: attachmentPath(folder, attachment) });
  }
}

/** Adds a stored file; a file that went missing is left out (the board file says `file: null` for those it saw missing). */
export async function addStored(store: FileStore, zip: ZipWriter, file: ImageFile): Promise<void> {
  const opened = await store.open(file.storedName);
  if (!opened) return;
  await zip.add(file.path, opened.stream);
}
