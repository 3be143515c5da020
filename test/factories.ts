import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestContext, TestUser } from './harness.js';
import { multipart } from './multipart.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Whoever a factory acts as: a harness user (by key) or a browser test's
 * account (by its session cookie); `id` names them as the owner.
 */
export type Seeder = { id: string } & ({ key: string } | { cookie: string });

async function ok(
  t: TestContext,
  user: Seeder,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: object,
): Promise<Json> {
  const res = await t.inject(user, { method, url, ...(payload ? { payload } : {}) });
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Json>();
}

export async function createArea(t: TestContext, user: Seeder, boardId: number, name = 'Area'): Promise<Json> {
  return (await ok(t, user, 'POST', '/api/data/area', { boardId, name })).area as Json;
}

export async function createCard(
  t: TestContext,
  user: Seeder,
  areaId: number,
  name = 'Card',
  fields: object = {},
): Promise<Json> {
  return (await ok(t, user, 'POST', '/api/data/card', { areaId, name, ...fields })).card as Json;
}

export async function updateCard(t: TestContext, user: Seeder, cardID: number, fields: object): Promise<Json> {
  return ok(t, user, 'PUT', '/api/data/card', { cardID, ...fields });
}

/** The names of an area's visible cards, top to bottom, checking that `sort` counts 0..n-1. */
export async function cardNames(t: TestContext, user: Seeder, areaId: number): Promise<string[]> {
  const { cards } = (await ok(t, user, 'GET', `/api/data/cards?areaId=${areaId}`)) as {
    cards: Array<{ name: string; sort: number }>;
  };
  cards.forEach((card, i) => {
    if (card.sort !== i) throw new Error(`area ${areaId}: card ${card.name} has sort ${card.sort} at position ${i}`);
  });
  return cards.map((c) => c.name);
}

export async function areaNames(t: TestContext, user: Seeder, boardId: number): Promise<string[]> {
  const { areas } = (await ok(t, user, 'GET', `/api/data/areas?boardId=${boardId}`)) as {
    areas: Array<{ name: string; sort: number }>;
  };
  areas.forEach((area, i) => {
    if (area.sort !== i) throw new Error(`board ${boardId}: area ${area.name} has sort ${area.sort} at position ${i}`);
  });
  return areas.map((a) => a.name);
}

/** A private kanban board owned by `user`, unless `fields` say otherwise. */
export async function createBoard(t: TestContext, user: Seeder, fields: Record<string, unknown> = {}): Promise<Json> {
  const payload = { userId: user.id, name: 'Board', style: 'kanban', status: 'private', ...fields };
  return (await ok(t, user, 'POST', '/api/data/board', payload)).board as Json;
}

/** A label of the board, by name. */
export async function createLabel(t: TestContext, user: Seeder, boardId: number, name: string): Promise<Json> {
  return (await ok(t, user, 'POST', '/api/data/labels', { boardId, name })).label as Json;
}

/** Adds `member` to the board through the API, as its owner would (the member is notified); `share` below skips the API. */
export async function invite(
  t: TestContext,
  owner: Seeder,
  boardId: number,
  member: { id: string },
  permission: 'read' | 'edit',
): Promise<Json> {
  return ok(t, owner, 'POST', '/api/data/invite', { boardId, userId: member.id, permission });
}

/** A board with areas holding the named cards: `{ Todo: ['a', 'b'], Done: [] }`. */
export async function seedBoard(
  t: TestContext,
  user: Seeder,
  layout: Record<string, string[]>,
  boardFields: Record<string, unknown> = {},
) {
  const board = await createBoard(t, user, boardFields);
  const areas: Record<string, Json> = {};
  const cards: Record<string, Json> = {};
  for (const [areaName, names] of Object.entries(layout)) {
    const area = await createArea(t, user, board.id, areaName);
    areas[areaName] = area;
    for (const name of names) cards[name] = await createCard(t, user, area.id as number, name);
  }
  return { board, areas, cards };
}

/**
 * The board's stored order is whole: its areas hold sorts 0..n-1 exactly, and
 * each area's cards (archived ones included) hold distinct sort keys, which
 * have gaps so that a move writes one row.
 */
export async function assertStoredOrder(t: TestContext, boardId: number): Promise<void> {
  const areas = await t.db.selectFrom('areas').select(['id', 'sort']).where('boardId', '=', boardId).execute();
  const sorted = areas.map((a) => a.sort).sort((a, b) => a - b);
  sorted.forEach((s, i) => {
    if (s !== i) throw new Error(`areas of board ${boardId} are numbered ${JSON.stringify(sorted)}, not 0..${sorted.length - 1}`);
  });
  for (const area of areas) {
    const keys = (await t.db.selectFrom('cards').select('sort').where('areaId', '=', area.id).execute()).map((c) => c.sort);
    if (new Set(keys).size !== keys.length) throw new Error(`cards of area ${area.id} share sort keys: ${JSON.stringify(keys)}`);
  }
}

/** Rows of the board-model tables, to prove a refusal changed nothing. */
export async function snapshot(t: TestContext) {
  const all = <
    T extends
      | 'boards'
      | 'areas'
      | 'cards'
      | 'labels'
      | 'card_labels'
      | 'card_assignees'
      | 'card_reminders'
      | 'board_events'
      | 'board_members'
      | 'board_invites'
      | 'custom_fields'
      | 'card_field_values',
  >(
    table: T,
  ) =>
    t.db
      .selectFrom(table)
      .selectAll()
      .execute()
      .then((rows) => rows.map((r) => JSON.stringify(r)).sort());
  return {
    boards: await all('boards'),
    areas: await all('areas'),
    cards: await all('cards'),
    labels: await all('labels'),
    cardLabels: await all('card_labels'),
    assignees: await all('card_assignees'),
    reminders: await all('card_reminders'),
    events: await all('board_events'),
    members: await all('board_members'),
    invites: await all('board_invites'),
    fields: await all('custom_fields'),
    fieldValues: await all('card_field_values'),
  };
}

/** The files under the data folder's uploads (paths relative to it, `tmp/` included), sorted. */
export function uploadedFiles(t: TestContext): string[] {
  const root = path.join(t.config.dataDir, 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** Makes `user` a member of the board straight in the database (arranging a test, not testing sharing). */
export async function share(t: TestContext, boardId: number, user: TestUser, permission: 'read' | 'edit'): Promise<void> {
  await t.db
    .insertInto('board_members')
    .values({ boardId, userId: user.id, permission, createdAt: new Date().toISOString() })
    .execute();
}

/** Uploads `data` as a board import (a board zip, a board file or a Trello export); answers the response, whatever it is. */
export function importBoardFile(
  t: TestContext,
  user: Seeder,
  data: Buffer | string,
  filename: string,
  type = 'application/octet-stream',
) {
  return t.inject(user, {
    method: 'POST',
    url: '/api/data/board-import',
    ...multipart([{ name: 'file', filename, type, data }]),
  });
}

/** The first link matching `pattern` (as a path) in a mail to `to` from the outbox, waited for: the job runner sends mails. */
export async function mailLink(t: TestContext, to: string, pattern: RegExp): Promise<string> {
  const outbox = path.join(t.config.dataDir, 'outbox');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox).sort()) {
        const raw = readFileSync(path.join(outbox, file), 'utf8');
        if (!raw.includes(`To: ${to}`)) continue;
        // Quoted-printable: soft line breaks and =3D.
        const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const match = pattern.exec(text);
        if (match) return new URL(match[0], t.config.baseUrl).pathname + new URL(match[0], t.config.baseUrl).search;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${to}`);
}

/** The link of the address verification mail. */
export const VERIFY_LINK = /\/api\/auth\/verify-email\?token=[^\s"<]+/;

/**
 * Confirms the account's address through the mailed link, as its owner would
 * (address invitations, keys, feeds, webhooks and public links need it); the
 * mail comes from the outbox, so the job runner must be running.
 */
export async function confirmAddress(t: TestContext, user: { email: string }): Promise<void> {
  const res = await t.app.inject({ method: 'GET', url: await mailLink(t, user.email, VERIFY_LINK) });
  if (res.statusCode !== 302) throw new Error(`verify-email: ${res.statusCode}`);
}
