import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Id, Success, errorResponses } from '../../../shared/api/common.js';
import { BoardFromTemplate, BoardResult, SaveTemplate, TemplateList, TemplateResult } from '../../../shared/api/templates.js';
import type { Deps } from '../../deps.js';
import { boardFromTemplate, deleteTemplate, listTemplates, saveTemplate } from './templates.service.js';

const tags = ['Templates'];

/**
 * Board templates: the structure of a board (areas, labels, cards with their
 * content and checklists; no people, dates, comments or attachments) saved
 * by an account for itself, and a few built-in ones in the instance language.
 */
export function templateRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/templates',
    {
      schema: {
        tags,
        summary: 'The built-in templates (in the instance language), then yours, newest first',
        response: { 200: TemplateList, ...errorResponses },
      },
    },
    async (request) => ({ templates: await listTemplates(deps, request.actor) }),
  );

  r.post(
    '/template',
    {
      schema: {
        tags,
        summary:
          'Save the structure of a board you can read as a template of yours (areas, labels, cards with content and checklists; archived ones, people and dates are left out)',
        body: SaveTemplate,
        response: { 200: TemplateResult, ...errorResponses },
      },
    },
    async (request) => ({ template: await saveTemplate(deps, request.actor, request.body) }),
  );

  r.delete(
    '/template',
    {
      schema: {
        tags,
        summary: 'Delete a template of yours',
        querystring: Type.Object({ id: Id }),
        response: { 200: Success, ...errorResponses },
      },
    },
    async (request) => {
      await deleteTemplate(deps, request.actor, request.query.id);
      return { success: true };
    },
  );

  r.post(
    '/board-from-template',
    {
      schema: {
        tags,
        summary: 'Create a board of yours from a built-in template or one of yours (the style defaults to the template’s)',
        body: BoardFromTemplate,
        response: { 200: BoardResult, ...errorResponses },
      },
    },
    async (request) => ({ board: await boardFromTemplate(deps, request.actor, request.body) }),
  );
}
