import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Id, Success, errorResponses } from '../../../shared/api/common.js';
import { InviteList, InviteRemove, InviteWrite } from '../../../shared/api/sharing.js';
import type { Deps } from '../../deps.js';
import { boardPeople, invite, leaveBoard, listInvites, removeInvite } from './sharing.service.js';

const tags = ['Sharing'];
const writeErrors = { ...errorResponses, 409: ErrorBody };

export function sharingRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/invite',
    {
      schema: {
        tags,
        summary: "The board's members and pending invitations (owner only)",
        querystring: Type.Object({ boardId: Id }),
        response: { 200: InviteList, ...errorResponses },
      },
    },
    async (request) => listInvites(deps, request.actor, request.query.boardId),
  );

  r.post(
    '/invite',
    {
      schema: {
        tags,
        summary:
          'Share a board with an account (userId) or an address (mail), or change a member’s permission (owner only); ' +
          'the answer does not tell whether the address has an account',
        body: InviteWrite,
        // 429 (with Retry-After) past INVITE_RATE_LIMIT per hour or INVITE_ADDRESS_RATE_LIMIT per address and day.
        response: { 200: Success, ...writeErrors, 429: ErrorBody },
      },
    },
    async (request) => {
      await invite(deps, request.actor, request.body);
      return { success: true };
    },
  );

  r.delete(
    '/invite',
    {
      schema: {
        tags,
        summary: 'Take a member’s access away (userId) or cancel a pending invitation (mail) (owner only)',
        querystring: InviteRemove,
        response: { 200: Success, ...writeErrors },
      },
    },
    async (request) => {
      await removeInvite(deps, request.actor, request.query);
      return { success: true };
    },
  );

  r.get(
    '/members',
    {
      schema: {
        tags: ['Sharing'],
        summary: 'Everyone on a board (owner first), for anyone who can read it; no e-mail addresses',
        querystring: Type.Object({ boardId: Id }),
        response: {
          200: Type.Object({
            members: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                image: Type.Union([Type.String(), Type.Null()]),
                permission: Type.String(),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ members: await boardPeople(deps, request.actor, request.query.boardId) }),
  );

  r.post(
    '/leaveBoard',
    {
      schema: {
        tags,
        summary: 'Give up my own access to a board shared with me (not for its owner)',
        body: Type.Object({ boardId: Id }),
        response: { 200: Success, ...writeErrors },
      },
    },
    async (request) => {
      await leaveBoard(deps, request.actor, request.body.boardId);
      return { success: true };
    },
  );
}
