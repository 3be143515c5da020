import { fileStore } from '../../files/store.js';
import { serviceVersion } from '../../version.js';
import type { ZipWriter } from '../../zip/writer.js';
import { writeBoardFile } from '../board-export/board-file.js';
import { addAttachments, addStored, type ExportDeps } from '../board-export/board-export.service.js';
import { boardStem, imagePath } from '../board-export/zip-paths.js';
import { allBoards, boardImages } from './instance-backup.repository.js';

/**
 * The whole instance: for every board (archived ones too, by id)
 * `boards/<id>-<name>.json` and its files under `attachments/<id>-<name>/`
 * (every picture uploaded to the board under `images/`, so a restore gets
 * them all back), then `database.sql`, all from one snapshot.
 */
export async function writeInstanceZip(deps: ExportDeps, zip: ZipWriter): Promise<void> {
  const store = fileStore(deps.config);
  const exportedAt = new Date().toISOString();
  await deps.database.snapshot(async (db) => {
    for await (const board of allBoards(db)) {
      const stem = boardStem(board);
      const folder = `attachments/${stem}`;
      const entry = zip.text(`boards/${stem}.json`);
      await writeBoardFile(db, board, { baseUrl: deps.config.baseUrl, folder, serviceVersion, exportedAt, store }, (text) =>
        entry.write(text),
      );
      await entry.end();
      await addAttachments(db, board.id, folder, store, zip);
      for await (const image of boardImages(db, board.id)) {
        await addStored(store, zip, { storedName: image.storedName, path: imagePath(folder, image.storedName) });
      }
    }
    const dump = zip.text('database.sql');
    const write = (text: string) => dump.write(text);
    const meta = { serviceVersion, exportedAt };
    await deps.database.dialect.dump(db, write, meta);
    await dump.end();
  });
  await zip.finalize();
}
