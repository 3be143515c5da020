import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Attachment, AttachmentQuery, UploadedImage } from '../../../shared/api/attachments.js';
import { ErrorBody, Success, errorResponses, isId } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { contentDisposition, isStoredName, type OpenedFile } from '../../files/store.js';
import { missing } from '../../access/index.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { discardBody, multipartError } from '../../http/multipart-errors.js';
import {
  checkCardUpload,
  checkImageUpload,
  createAttachment,
  createImage,
  deleteAttachment,
  downloadAttachment,
  openImage,
  type IncomingFile,
} from './attachments.service.js';

const tags = ['Attachments'];
const uploadErrors = { ...errorResponses, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody };

/**
 * Files on cards and pictures pasted into descriptions and comments. The
 * multipart parser lives in this scope only: every other data route still
 * takes JSON alone.
 */
export function attachmentRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      // The whole name as sent: safeFilename makes it safe (busboy would cut it to its last segment quietly).
      preservePath: true,
      limits: {
        fileSize: deps.config.maxUploadMb * 1024 * 1024,
        files: 1,
        fields: 10,
        fieldSize: 1024,
        parts: 20,
        headerPairs: 100,
      },
    });
    routes(scope, deps);
  });
}

function routes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/attachment',
    {
      schema: {
        tags,
        summary: 'Attach a file to a card (multipart: the cardId field first, then file)',
        consumes: ['multipart/form-data'],
        response: { 200: Type.Object({ attachment: Attachment }), ...uploadErrors },
      },
    },
    async (request) => {
      const attachment = await receiveUpload(request, 'cardId', async (cardId) => {
        const boardId = await checkCardUpload(deps, request.actor, cardId);
        return (file: IncomingFile) => createAttachment(deps, request.actor, { boardId, cardId }, file);
      });
      return { attachment };
    },
  );

  r.get(
    '/attachment',
    {
      schema: {
        tags,
        summary: 'Download an attachment (always as a download, never shown as a page)',
        querystring: AttachmentQuery,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const download = await downloadAttachment(deps, request.actor, request.query.id);
      if (download.kind === 'link') return reply.redirect(download.url);
      return sendFile(reply, download.file, {
        'content-type': download.contentType,
        'content-disposition': contentDisposition(download.filename),
        'cache-control': 'private, no-cache',
      });
    },
  );

  r.delete(
    '/attachment',
    {
      schema: {
        tags,
        summary: 'Remove an attachment',
        querystring: AttachmentQuery,
        response: { 200: Success, ...errorResponses, 409: ErrorBody },
      },
    },
    async (request) => {
      await deleteAttachment(deps, request.actor, request.query.id);
      return { success: true };
    },
  );

  r.post(
    '/image',
    {
      schema: {
        tags,
        summary: 'Upload a picture for a description or comment (multipart: boardId, then file); answers its address',
        consumes: ['multipart/form-data'],
        response: { 200: UploadedImage, ...uploadErrors },
      },
    },
    async (request) =>
      receiveUpload(request, 'boardId', async (boardId) => {
        await checkImageUpload(deps, request.actor, boardId);
        return (file: IncomingFile) => createImage(deps, request.actor, boardId, file);
      }),
  );

  r.get(
    '/image/:name',
    {
      schema: {
        tags,
        summary: 'A pasted picture, for whoever can read its board',
        params: Type.Object({ name: Type.String() }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      if (!isStoredName(request.params.name)) throw missing('Image');
      const { file, contentType } = await openImage(deps, request.actor, request.params.name);
      return sendFile(reply, file, {
        'content-type': contentType,
        'cache-control': 'private, max-age=31536000, immutable',
      });
    },
  );
}

function sendFile(reply: FastifyReply, file: OpenedFile, headers: Record<string, string>) {
  return reply
    .headers({
      ...headers,
      'content-length': String(file.size),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    .send(file.stream);
}

/**
 * Reads a multipart upload: the id field (`cardId` or `boardId`) must come
 * first, so that `authorize` refuses before any of the file is read; then
 * the file is handed to what `authorize` returned. On any refusal the rest of
 * the request body is discarded.
 */
async function receiveUpload<T>(
  request: FastifyRequest,
  idField: 'cardId' | 'boardId',
  authorize: (id: number) => Promise<(file: IncomingFile) => Promise<T>>,
): Promise<T> {
  if (!request.isMultipart()) throw new HttpError(415, 'Unsupported content type; send multipart/form-data');
  let store: ((file: IncomingFile) => Promise<T>) | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === idField && store === undefined) store = await authorize(parseId(idField, part.value));
        continue;
      }
      if (store === undefined) throw badRequest(`body: ${idField} is required before the file`);
      if (!part.filename) throw badRequest('body: file is required');
      return await store({ stream: part.file, filename: part.filename, mimetype: part.mimetype });
    }
  } catch (error) {
    discardBody(request);
    throw multipartError(error, 'The file is larger than the upload limit');
  }
  throw badRequest(store === undefined ? `body: ${idField} is required` : 'body: file is required');
}

function parseId(field: string, value: unknown): number {
  const text = typeof value === 'string' ? value.trim() : '';
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!isId(id)) throw badRequest(`body: ${field} must be a positive integer`);
  return id;
}
