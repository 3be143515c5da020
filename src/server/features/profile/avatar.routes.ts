import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import type { OpenedFile } from '../../files/store.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { discardBody, multipartError } from '../../http/multipart-errors.js';
import type { IncomingFile } from '../attachments/attachments.service.js';
import { AVATAR_LIMIT_BYTES, clearAvatar, openAvatar, setAvatar } from './avatar.service.js';

const tags = ['Profile'];
const ProfileImage = Type.Object({
  image: Type.Union([Type.String(), Type.Null()], { description: 'The address of the account’s picture, or null' }),
});
const uploadErrors = { ...errorResponses, 413: ErrorBody, 415: ErrorBody };

/**
 * The account's own profile picture. Like attachments, the multipart parser
 * lives in this scope only.
 */
export function profileRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: AVATAR_LIMIT_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
    });
    routes(scope, deps);
  });
}

function routes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/avatar',
    {
      schema: {
        tags,
        summary: 'Upload my profile picture (multipart: file; PNG, JPEG, GIF or WebP, at most 2 MB); answers its address',
        consumes: ['multipart/form-data'],
        response: { 200: ProfileImage, ...uploadErrors },
      },
    },
    async (request) => ({ image: await receiveFile(request, (file) => setAvatar(deps, request.actor, file)) }),
  );

  r.delete(
    '/avatar',
    {
      schema: {
        tags,
        summary: 'Remove my profile picture',
        response: { 200: ProfileImage, ...errorResponses },
      },
    },
    async (request) => {
      await clearAvatar(deps, request.actor);
      return { image: null };
    },
  );

  r.get(
    '/avatar/:name',
    {
      schema: {
        tags,
        summary: 'A profile picture, for any signed-in account',
        params: Type.Object({ name: Type.String() }),
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const { file, contentType } = await openAvatar(deps, request.params.name);
      return sendPicture(reply, file, contentType);
    },
  );
}

function sendPicture(reply: FastifyReply, file: OpenedFile, contentType: string) {
  return reply
    .headers({
      'content-type': contentType,
      'content-length': String(file.size),
      'cache-control': 'private, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    })
    .send(file.stream);
}

/** Reads the one `file` part of a multipart upload and hands it to `store`; on a refusal the rest of the body is dropped. */
async function receiveFile<T>(request: FastifyRequest, store: (file: IncomingFile) => Promise<T>): Promise<T> {
  if (!request.isMultipart()) throw new HttpError(415, 'Unsupported content type; send multipart/form-data');
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') continue;
      if (part.fieldname !== 'file' || !part.filename) throw badRequest('body: file is required');
      return await store({ stream: part.file, filename: part.filename, mimetype: part.mimetype });
    }
  } catch (error) {
    discardBody(request);
    throw multipartError(error, 'The picture is larger than 2 MB');
  }
  throw badRequest('body: file is required');
}
