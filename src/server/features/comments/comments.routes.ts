import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Comment, CommentCreate, CommentUpdate } from '../../../shared/api/comments.js';
import { COMMENT_PAGE_MAX } from '../../../shared/limits.js';
import { ErrorBody, Id, MAX_ID, Success, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import { createComment, deleteComment, listComments, updateComment } from './comments.service.js';

const tags = ['Comments'];
const writeErrors = { ...errorResponses, 409: ErrorBody };

export function commentRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/comment',
    {
      schema: {
        tags,
        summary: "A card's comments, oldest first: the newest page of them",
        description:
          `The newest \`limit\` comments (at most ${COMMENT_PAGE_MAX}, the default), oldest first. ` +
          'For the ones before, ask again with `before` set to the id of the oldest comment you have.',
        querystring: Type.Object({
          cardId: Id,
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: COMMENT_PAGE_MAX, description: `comments on the page, 1–${COMMENT_PAGE_MAX}` }),
          ),
          before: Type.Optional(
            Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'only comments older than this comment id' }),
          ),
        }),
        response: { 200: Type.Object({ comments: Type.Array(Comment) }), ...errorResponses },
      },
    },
    async (request) => {
      const { cardId, ...page } = request.query;
      return { comments: await listComments(deps, request.actor, cardId, page) };
    },
  );

  r.post(
    '/comment',
    {
      schema: {
        tags,
        summary: 'Comment on a card (Markdown)',
        body: CommentCreate,
        response: { 200: Type.Object({ comment: Comment }), ...writeErrors },
      },
    },
    async (request) => ({ comment: await createComment(deps, request.actor, request.body) }),
  );

  r.put(
    '/comment',
    {
      schema: {
        tags,
        summary: 'Change the text of one of my comments',
        body: CommentUpdate,
        response: { 200: Type.Object({ comment: Comment }), ...writeErrors },
      },
    },
    async (request) => ({ comment: await updateComment(deps, request.actor, request.body) }),
  );

  r.delete(
    '/comment',
    {
      schema: {
        tags,
        summary: 'Remove one of my comments',
        querystring: Type.Object({ id: Id }),
        response: { 200: Success, ...writeErrors },
      },
    },
    async (request) => {
      await deleteComment(deps, request.actor, request.query.id);
      return { success: true };
    },
  );
}
