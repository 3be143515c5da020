import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { contentDisposition } from '../../files/store.js';
import type { ZipAborted, ZipWriter } from '../../zip/writer.js';

export const ZIP = 'application/zip';
export const CSV = 'text/csv; charset=utf-8';

// The zip writer (archiver and its streams: over a MiB of code) loads with the first export, not with every process.
export const zipWriter = () => import('../../zip/writer.js');

/** The answer of a download: its type and file name, never cached or sniffed; HEAD passes no stream. */
export function download(reply: FastifyReply, stream: NodeJS.ReadableStream | null, type: string, filename: string) {
  return reply
    .header('content-type', type)
    .header('content-disposition', contentDisposition(filename))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(stream ?? undefined);
}

/** Breaks a zip download off after a failure (a reader that went away is logged, not reported). */
export function stopZip(log: FastifyBaseLogger, zip: ZipWriter, error: unknown, message: string, aborted: typeof ZipAborted) {
  // A reader that went away is not a failure of ours.
  if (error instanceof aborted) log.info('export stopped: the client went away');
  else log.error({ err: error }, message);
  zip.destroy(error);
}
