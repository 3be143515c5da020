import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BoardImportResult } from '../../../shared/api/board-import.js';
import { ErrorBody, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { fileStore } from '../../files/store.js';
import { HttpError, badRequest } from '../../http/errors.js';
import { discardBody, multipartError } from '../../http/multipart-errors.js';
import { importBoard, importLimits } from './board-import.js';

/** Seconds a refused import is told to wait: slots free up as imports end. */
const RETRY_AFTER_SECONDS = 10;
const tooLarge = () => new HttpError(413, 'The file is larger than the import limit');

/**
 * POST /board-import: a board export (multipart, the zip in the field
 * `file`), or a Trello board export, becomes a new board of the caller's. The multipart parser lives in
 * this scope only. The zip is kept in a temporary file while it is read (a
 * zip is read from its end) and removed afterwards, whatever happened.
 * One import at a time per account, and `IMPORTS_PER_INSTANCE` in the process
 * (429 beyond either): each holds a large upload on disk and a large board
 * file in memory, and takes its share of the process's time.
 */
export function boardImportRoutes(app: FastifyInstance, deps: Deps): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: importLimits.uploadBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
    });
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();
    r.post(
      '/board-import',
      {
        schema: {
          tags: ['Exports'],
          summary:
            'Import a board export (multipart: the zip as `file`), a Trello board export (its JSON, plain or zipped) or a LokalBoards board export (its zip, or its board file) as a new board of yours',
          consumes: ['multipart/form-data'],
          response: { 200: BoardImportResult, ...errorResponses, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw new HttpError(415, 'Unsupported content type; send multipart/form-data');
        const held = deps.limits.slots([
          ['imports.account', request.actor.id],
          ['imports.instance', 'instance'],
        ]);
        if ('full' in held) {
          discardBody(request);
          throw deps.limits.refusal(held.full, RETRY_AFTER_SECONDS);
        }
        const store = fileStore(deps.config);
        const zipFile = path.join(store.scratchDir, `${randomBytes(16).toString('hex')}.import.part`);
        try {
          await mkdir(store.scratchDir, { recursive: true });
          let received = false;
          try {
            for await (const part of request.parts()) {
              if (part.type === 'field') continue;
              if (part.fieldname !== 'file' || received) {
                part.file.resume();
                continue;
              }
              await pipeline(part.file, createWriteStream(zipFile, { flags: 'wx', mode: 0o600 }));
              if (part.file.truncated) throw tooLarge();
              received = true;
            }
          } catch (error) {
            discardBody(request);
            throw multipartError(error, 'The file is larger than the import limit');
          }
          if (!received) throw badRequest('body: file is required');
          return await importBoard(deps, request.actor, zipFile);
        } finally {
          await rm(zipFile, { force: true });
          held.release();
        }
      },
    );
  });
}
