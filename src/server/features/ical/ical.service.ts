import { recordedWrite } from '../../events/write-record.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { MAX_ICAL_FEEDS, type IcalFeed, type IcalFeedCreate, type IcalFeedCreated } from '../../../shared/api/ical.js';
import { requireBoard } from '../../access/index.js';
import { hashKey, type Actor } from '../../auth/actor.js';
import { requireVerified } from '../../auth/identify.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { serviceVersion } from '../../version.js';
import { calendarText, type CalendarEvent } from './ical-text.js';
import * as repo from './ical.repository.js';

/** Most events one feed answer holds: the latest due first, so the coming weeks are always in. */
export const MAX_FEED_EVENTS = 2000;

const feedMissing = () => notFound('Feed not found');

export const feedUrl = (baseUrl: string, token: string) => `${baseUrl}/api/ical/${token}.ics`;

function present(row: {
  id: string;
  name: string;
  start: string;
  boardIds: string;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}): IcalFeed {
  return {
    id: row.id,
    name: row.name,
    start: row.start,
    boardIds: JSON.parse(row.boardIds) as number[],
    createdAt: toIso(row.createdAt),
    lastUsedAt: toIso(row.lastUsedAt),
  };
}

export async function listFeeds(deps: Pick<Deps, 'database'>, actor: Actor): Promise<IcalFeed[]> {
  return (await repo.listFeeds(deps.database.db, actor.id)).map(present);
}

/** A new secret feed address; the token is in the answer only, its SHA-256 in the database. */
export async function createFeed(
  deps: Pick<Deps, 'database' | 'config'>,
  actor: Actor,
  input: IcalFeedCreate,
): Promise<IcalFeedCreated> {
  requireVerified(actor, 'calendar feeds');
  const { db } = deps.database;
  const name = input.name.trim();
  if (name === '') throw badRequest('body/name must not be blank');
  const boardIds = [...new Set(input.boardIds ?? [])];
  // Only boards I can read now; the feed checks again on every request.
  for (const boardId of boardIds) await requireBoard(db, actor, boardId, 'read');
  const token = randomBytes(32).toString('base64url');
  const row = {
    id: randomUUID(),
    userId: actor.id,
    name,
    start: token.slice(0, 6),
    tokenHash: hashKey(token),
    boardIds: JSON.stringify(boardIds),
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  // The Idempotency-Key's record in the same transaction: a retry after a lost answer is refused, not a second feed.
  await recordedWrite(db, async (trx) => {
    if ((await repo.countFeeds(trx, actor.id)) >= MAX_ICAL_FEEDS)
      throw conflict(`At most ${MAX_ICAL_FEEDS} calendar feeds per account`);
    await repo.insertFeed(trx, row);
  });
  return { feed: present(row), url: feedUrl(deps.config.baseUrl, token) };
}

/** Revokes a feed of mine: its address answers 404 from now on. */
export async function revokeFeed(deps: Pick<Deps, 'database'>, actor: Actor, id: string): Promise<void> {
  await recordedWrite(deps.database.db, async (trx) => {
    if (!(await repo.deleteFeed(trx, actor.id, id))) throw feedMissing();
  });
}

/** The feed's account, or null for an unknown or revoked token, or a banned account. */
async function feedOwner(deps: Pick<Deps, 'database'>, token: string) {
  const row = await repo.findFeedByHash(deps.database.db, hashKey(token));
  if (!row || row.banned === true || row.banned === 1) return null;
  return row;
}

/**
 * The calendar text of a feed: every open card with a due date assigned to
 * its account, and every open dated card of its chosen boards, all on boards
 * the account can read at this moment.
 */
export async function feedCalendar(deps: Pick<Deps, 'database' | 'config'>, token: string): Promise<string> {
  const feed = await feedOwner(deps, token);
  if (!feed) throw feedMissing();
  const { db } = deps.database;
  const boardIds = JSON.parse(feed.boardIds) as number[];
  const rows = await repo.feedCards(db, feed.userId, boardIds, MAX_FEED_EVENTS);
  await repo.touchFeed(db, feed.id, nowIso());

  const { baseUrl } = deps.config;
  const host = new URL(baseUrl).host;
  const events: CalendarEvent[] = rows.map((row) => {
    const url = `${baseUrl}/board/${row.boardId}?card=${row.id}`;
    return {
      uid: `card-${row.id}@${host}`,
      changedAt: new Date(toIso(row.updatedAt)),
      start: new Date(toIso(row.dueDate!)),
      summary: row.name,
      description: `${row.boardName} › ${row.areaName}\n${url}`,
      url,
    };
  });
  return calendarText({ prodId: `-//Tavla//Tavla ${serviceVersion}//EN`, name: `Tavla: ${feed.name}`, events });
}
