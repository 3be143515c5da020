import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorBody, Success, errorResponses } from '../../../shared/api/common.js';
import { IcalFeed, IcalFeedCreate, IcalFeedCreated } from '../../../shared/api/ical.js';
import { hashKey } from '../../auth/actor.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import { createFeed, feedCalendar, listFeeds, revokeFeed } from './ical.service.js';

const tags = ['Calendar feeds'];

/** Managing my feeds, in the `/api/data` scope (any credential of mine; writes need a full-access one). */
export function icalFeedRoutes(app: FastifyInstance, deps: Deps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/ical-feeds',
    {
      schema: {
        tags,
        summary: 'My calendar feeds (never their secret addresses)',
        response: { 200: Type.Object({ feeds: Type.Array(IcalFeed) }), ...errorResponses },
      },
    },
    async (request) => ({ feeds: await listFeeds(deps, request.actor) }),
  );
  r.post(
    '/ical-feeds',
    {
      config: { secretAnswer: true },
      schema: {
        tags,
        summary: 'Create a secret calendar feed address (iCalendar); the address is in this answer only',
        body: IcalFeedCreate,
        response: { 200: IcalFeedCreated, ...errorResponses, 409: ErrorBody },
      },
    },
    async (request) => createFeed(deps, request.actor, request.body),
  );
  r.delete(
    '/ical-feeds',
    {
      schema: {
        tags,
        summary: 'Revoke a calendar feed: its address answers 404 from now on',
        querystring: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Success, ...errorResponses },
      },
    },
    async (request) => {
      await revokeFeed(deps, request.actor, request.query.id);
      return { success: true };
    },
  );
}

const FEED_FILE = /^([A-Za-z0-9_-]{16,100})\.ics$/;

/** The feed itself: outside `/api/data`, the secret in its address is the only credential. */
export function icalFeedRoute(app: FastifyInstance, deps: Deps): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/ical/:file',
    {
      schema: {
        tags,
        summary: 'A calendar feed (RFC 5545 iCalendar, times in UTC) for Google, Apple or Outlook calendars',
        description:
          'One event per open card with a due date assigned to the feed’s account, plus the open dated cards of ' +
          'its chosen boards, on boards the account can read now. `file` is `<secret>.ics`; an unknown or revoked ' +
          'secret is 404. At most `ICAL_FEED_RATE_LIMIT` (60) requests per hour per feed (429 with Retry-After beyond).',
        params: Type.Object({ file: Type.String({ maxLength: 200, description: '`<secret>.ics`' }) }),
        response: {
          200: { description: '`text/calendar; charset=utf-8`', content: { 'text/calendar': { schema: Type.String() } } },
          404: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const token = FEED_FILE.exec(request.params.file)?.[1];
      if (!token) throw notFound('Feed not found');
      deps.limits.take('ical.feed', hashKey(token));
      const text = await feedCalendar(deps, token);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(text);
    },
  );
}
