import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorBody, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { requireAdmin } from '../../access/index.js';
import { ZIP, download, stopZip, zipWriter } from '../board-export/download.js';
import { watchDownload, takeExportSlot } from '../board-export/download-slots.js';
import { utcDate } from '../board-export/zip-paths.js';
import { writeInstanceZip } from './instance-export.service.js';

const tags = ['Exports'];

/**
 * The instance export (administrators): every board file, every file and
 * `database.sql`, streamed from one snapshot as the board export is, and
 * counted in the same `slots`. (Restore is the command `npm run restore`.)
 */
export function instanceBackupRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const stallMs = deps.config.exportStallSeconds * 1000;
  const watch = (reply: FastifyReply, work: Promise<unknown>, release: () => void) =>
    watchDownload(reply.raw, work, release, stallMs);

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
      requireAdmin(request.actor, 'export the instance');
      const filename = `tavla-export-${utcDate()}.zip`;
      if (request.method === 'HEAD') return download(reply, null, ZIP, filename);
      const { ZipWriter, ZipAborted } = await zipWriter();
      const release = takeExportSlot(deps.limits, request.actor.id);
      const zip = new ZipWriter();
      const work = writeInstanceZip(deps, zip).catch((error: unknown) =>
        stopZip(request.log, zip, error, 'instance export failed', ZipAborted),
      );
      watch(reply, work, release);
      return download(reply, zip.stream, ZIP, filename);
    },
  );
}
