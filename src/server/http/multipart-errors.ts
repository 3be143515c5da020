import type { FastifyRequest } from 'fastify';
import { UploadInterrupted, UploadTooLarge } from '../files/store.js';
import { HttpError, badRequest } from './errors.js';

/** A refused upload is answered at once; what the client is still sending is read and dropped. */
export function discardBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  raw.unpipe();
  raw.resume();
}

/**
 * What @fastify/multipart, busboy and the upload store throw, as the answer
 * the client gets: 413 past the route's limit (`tooLarge` says which), 415 or
 * 400 for a body that is not what it claims, anything else left as it is (a 500).
 */
export function multipartError(error: unknown, tooLarge: string): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof UploadTooLarge) return new HttpError(413, tooLarge);
  if (error instanceof UploadInterrupted) return badRequest('The upload did not complete');
  const code = (error as { code?: unknown } | null)?.code;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, tooLarge);
  if (typeof code === 'string' && code.startsWith('FST_') && typeof status === 'number' && status < 500)
    return new HttpError(status === 406 ? 415 : status, `Multipart body refused: ${(error as Error).message}`);
  if (code === 'ERR_STREAM_PREMATURE_CLOSE') return badRequest('The upload did not complete');
  // busboy's own parse errors ("Unexpected end of multipart data", a missing boundary, …).
  if (error instanceof Error && !('code' in error) && !('errno' in error)) return badRequest('Malformed multipart body');
  return error;
}
