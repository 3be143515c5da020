import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, errorResponses } from '../../../shared/api/common.js';
import { requireBoard } from '../../access/policy.js';
import type { Deps } from '../../deps.js';
import { contentDisposition } from '../../files/store.js';
import { forbidden } from '../../http/errors.js';
import { csvStream } from './csv.js';
import { DownloadSlots, watchDownload } from './download-slots.js';
import { writeBoardZip, writeCsv, writeInstanceZip } from './exports.service.js';
import { boardStem, utcDate } from './zip-names.js';
import type { ZipAborted, ZipWriter } from './zip-writer.js';

const tags = ['Exports'];
// The zip writer (archiver and its streams: over a MiB of code) loads with the first export, not with every process.
const zipWriter = () => import('./zip-writer.js');
const ZIP = 'application/zip';
const CSV = 'text/csv; charset=utf-8';

const BoardExportQuery = Type.Object({
  boardId: Id,
  format: Type.Optional(Type.Enum(['zip', 'csv'], { description: '`csv` for the cards as CSV; the zip otherwise' })),
});

/**
 * Board export (zip or CSV; read access) and the instance export
 * (administrators). Both answer at once and stream what they write, from one
 * consistent snapshot: a large export takes longer to finish, not to start.
 * A failure after the first byte breaks the stream off, so a client never
 * takes a cut-off zip for a complete one. Only so many exports run at once
 * (per account, per instance; 429 beyond), and a download whose reader stops
 * taking data is dropped: a stalled reader cannot hold a snapshot for long.
 */
export function boardExportRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const slots = new DownloadSlots({ perAccount: deps.config.exportsPerAccount, perInstance: deps.config.exportsPerInstance });
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
      const release = slots.take(request.actor.id, reply);
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
        stop(request.log, zip, error, 'board export failed', ZipAborted),
      );
      watch(reply, work, release);
      return download(reply, zip.stream, ZIP, `${name}.zip`);
    },
  );

  r.get(
    '/export',
    {
      schema: {
        tags,
        summary: 'Export the whole instance (administrators): every board file, every file, and database.sql',
        response: { ...errorResponses, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      if (request.actor.role !== 'admin') throw forbidden('Only an administrator can export the instance');
      const filename = `tavla-export-${utcDate()}.zip`;
      if (request.method === 'HEAD') return download(reply, null, ZIP, filename);
      const { ZipWriter, ZipAborted } = await zipWriter();
      const release = slots.take(request.actor.id, reply);
      const zip = new ZipWriter();
      const work = writeInstanceZip(deps, zip).catch((error: unknown) =>
        stop(request.log, zip, error, 'instance export failed', ZipAborted),
      );
      watch(reply, work, release);
      return download(reply, zip.stream, ZIP, filename);
    },
  );
}

function download(reply: FastifyReply, stream: NodeJS.ReadableStream | null, type: string, filename: string) {
  return reply
    .header('content-type', type)
    .header('content-disposition', contentDisposition(filename))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(stream ?? undefined);
}

function stop(log: FastifyBaseLogger, zip: ZipWriter, error: unknown, message: string, aborted: typeof ZipAborted) {
  // A reader that went away is not a failure of ours.
  if (error instanceof aborted) log.info('export stopped: the client went away');
  else log.error({ err: error }, message);
  zip.destroy(error);
}
