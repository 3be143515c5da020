import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import { requireBoard } from '../../access/index.js';
import type { Deps } from '../../deps.js';
import { writeBoardZip, writeCsv } from './board-export.service.js';
import { csvStream } from './csv.js';
import { CSV, ZIP, download, stopZip, zipWriter } from './download.js';
import { watchDownload, takeExportSlot } from './download-slots.js';
import { boardStem, utcDate } from './zip-paths.js';

const tags = ['Exports'];

const BoardExportQuery = Type.Object({
  boardId: Id,
  format: Type.Optional(Type.Enum(['zip', 'csv'], { description: '`csv` for the cards as CSV; the zip otherwise' })),
});

/**
 * Board export (zip or CSV; read access). It answers at once and stream what they write, from one
 * consistent snapshot: a large export takes longer to finish, not to start.
 * A failure after the first byte breaks the stream off, so a client never
 * takes a cut-off zip for a complete one. Only so many exports run at once
 * (per account, per instance, counted in `slots` together with the
 * instance export; 429 beyond), and a download whose reader stops
 * taking data is dropped: a stalled reader cannot hold a snapshot for long.
 */
export function boardExportRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const stallMs = deps.config.exportStallSeconds * 1000;
  const watch = (reply: FastifyReply, work: Promise<unknown>, release: () => void) =>
    watchDownload(reply.raw, work, release, stallMs);

  r.get(
    '/board-export',
    {
      schema: {
        tags,
        summary: 'Export a board: a zip with the board file and its files, or (format=csv) its cards as CSV',
        querystring: BoardExportQuery,
        response: { ...errorResponses, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      const { db } = deps.database;
      const { board } = await requireBoard(db, request.actor, request.query.boardId, 'read');
      const name = `${boardStem(board)}-${utcDate()}`;
      const csv = request.query.format === 'csv';
      // HEAD answers the headers without making the export (Fastify would read a stream to its end and drop it).
      if (request.method === 'HEAD') return download(reply, null, csv ? CSV : ZIP, `${name}.${csv ? 'csv' : 'zip'}`);
      const release = takeExportSlot(deps.limits, request.actor.id);
      if (csv) {
        const out = csvStream(deps.config.language);
        const work = writeCsv(deps, board.id, out).catch((error: unknown) => {
          // A reader that went away is not a failure of ours.
          if (out.destroyed) request.log.info('CSV export stopped: the client went away');
          else request.log.error({ err: error }, 'board CSV export failed');
          out.destroy(error instanceof Error ? error : new Error(String(error)));
        });
        watch(reply, work, release);
        return download(reply, out, CSV, `${name}.csv`);
      }
      const { ZipWriter, ZipAborted } = await zipWriter();
      const zip = new ZipWriter();
      const work = writeBoardZip(deps, board.id, zip).catch((error: unknown) =>
        stopZip(request.log, zip, error, 'board export failed', ZipAborted),
      );
      watch(reply, work, release);
      return download(reply, zip.stream, ZIP, `${name}.zip`);
    },
  );
}
