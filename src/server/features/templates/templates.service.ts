import type { Board } from '../../../shared/api/boards.js';
import type { BoardFromTemplate, SaveTemplate, TemplateSummary } from '../../../shared/api/templates.js';
import { TEMPLATE_MAX_AREAS, TEMPLATE_MAX_CARDS, TEMPLATE_MAX_CHARS, TEMPLATES_PER_ACCOUNT } from '../../../shared/limits.js';
import type { Actor } from '../../auth/actor.js';
import { requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { badRequest, notFound } from '../../http/errors.js';
import { createBoardWrite } from '../../events/board-write.js';
import { recordedWrite } from '../../events/write-record.js';
import { createBoard, noFiles } from '../board-import/board-import.js';
import { boardLabels } from '../labels/labels.service.js';
import { boardFields, fieldValuesOf } from '../fields/fields.service.js';
import { builtInTemplates } from './built-ins.js';
import { cardCount, toBoardFile, type TemplateSnapshot, type TemplateStyle } from './snapshot.js';
import * as repo from './templates.repository.js';
import { visibleAreasInOrder } from '../board-export/board-export.repository.js';

/*
 * Sharing: a saved template belongs to the account that saved it and only it
 * sees, uses or deletes it (anyone else gets 404, as for a missing one). The
 * built-in templates are everyone's, in the instance language.
 */

const templateMissing = () => notFound('Template not found');

function trimmedName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest('body: name must not be blank');
  return name;
}

/** The structure of a board as its readers see it: areas and cards not archived, in board order, with their labels. */
async function snapshotOf(db: Db, boardId: number, style: TemplateStyle): Promise<TemplateSnapshot> {
  const areas = await visibleAreasInOrder(db, boardId);
  if (areas.length > TEMPLATE_MAX_AREAS) throw badRequest(`A template holds at most ${TEMPLATE_MAX_AREAS} areas`);
  const cards = await repo.visibleCardTexts(db, boardId, TEMPLATE_MAX_CARDS + 1);
  if (cards.length > TEMPLATE_MAX_CARDS) throw badRequest(`A template holds at most ${TEMPLATE_MAX_CARDS} cards`);
  const worn = await repo.labelsWorn(db, boardId);
  const labelsOf = new Map<number, string[]>();
  for (const { cardId, name } of worn) labelsOf.set(cardId, [...(labelsOf.get(cardId) ?? []), name]);
  const fields = await boardFields(db, boardId);
  // A template names a field by its place in the list: the board's ids mean nothing to the board made from it.
  const place = new Map(fields.map((f, i) => [String(f.id), String(i)]));
  const values = await fieldValuesOf(
    db,
    cards.map((c) => c.id),
  );
  const valuesOf = (cardId: number) =>
    Object.fromEntries(Object.entries(values.get(cardId) ?? {}).map(([id, value]) => [place.get(id)!, value]));
  return {
    style,
    labels: (await boardLabels(db, boardId)).map((l) => l.name),
    fields: fields.map(({ name, type, options, showOnCard }) => ({ name, type, options, showOnCard })),
    areas: areas.map((area) => ({
      name: area.name,
      cards: cards
        .filter((c) => c.areaId === area.id)
        .map((c) => ({ name: c.name, content: c.content, labels: labelsOf.get(c.id) ?? [], fields: valuesOf(c.id) })),
    })),
  };
}

const asStyle = (style: string): TemplateStyle => (style === 'todo' ? 'todo' : 'kanban');

/** Saves the structure of a board the caller can read as a template of theirs. */
export async function saveTemplate(deps: ServiceDeps, actor: Actor, input: SaveTemplate): Promise<TemplateSummary> {
  const name = trimmedName(input.name);
  // The Idempotency-Key's record in the same transaction: a retry after a lost answer gets this template, not a second.
  return recordedWrite(deps.database.db, async (trx) => {
    const { board } = await requireBoard(trx, actor, input.boardId, 'read');
    const owned = await repo.countTemplates(trx, actor.id);
    if (owned >= TEMPLATES_PER_ACCOUNT) throw badRequest(`You keep at most ${TEMPLATES_PER_ACCOUNT} templates; delete one first`);
    const snapshot = await snapshotOf(trx, board.id, asStyle(board.style));
    const text = JSON.stringify(snapshot);
    if (text.length > TEMPLATE_MAX_CHARS) throw badRequest('The board holds too much text for a template');
    const row = await repo.insertTemplate(trx, {
      ownerId: actor.id,
      name,
      snapshot: text,
      areaCount: snapshot.areas.length,
      cardCount: cardCount(snapshot),
      createdAt: nowIso(),
    });
    return {
      id: row.id,
      name: row.name,
      builtIn: false,
      style: snapshot.style,
      areas: row.areaCount,
      cards: row.cardCount,
      createdAt: toIso(row.createdAt),
    };
  });
}

/** The built-in templates, then the caller's own, newest first. */
export async function listTemplates(deps: ServiceDeps, actor: Actor): Promise<TemplateSummary[]> {
  const builtIns = builtInTemplates(deps.config.language).map(({ id, name, snapshot }): TemplateSummary => ({
    id,
    name,
    builtIn: true,
    style: snapshot.style,
    areas: snapshot.areas.length,
    cards: cardCount(snapshot),
    createdAt: null,
  }));
  const rows = await repo.listTemplates(deps.database.db, actor.id);
  const own = rows.map((row): TemplateSummary => ({
    id: row.id,
    name: row.name,
    builtIn: false,
    style: (JSON.parse(row.snapshot) as TemplateSnapshot).style,
    areas: row.areaCount,
    cards: row.cardCount,
    createdAt: toIso(row.createdAt),
  }));
  return [...builtIns, ...own];
}

/** Deletes a template of the caller's own; a built-in or anyone else's is not found. */
export async function deleteTemplate(deps: ServiceDeps, actor: Actor, id: number): Promise<void> {
  await recordedWrite(deps.database.db, async (trx) => {
    if (!(await repo.deleteTemplate(trx, actor.id, id))) throw templateMissing();
  });
}

/** A new board of the caller's from a built-in template or one of theirs, made the way an import makes one. */
export async function boardFromTemplate(deps: ServiceDeps, actor: Actor, input: BoardFromTemplate): Promise<Board> {
  const name = trimmedName(input.name);
  return createBoardWrite(deps, actor, async (scope) => {
    const snapshot = await templateSnapshot(scope.trx, deps, actor, input.templateId);
    const file = toBoardFile(snapshot, actor, {
      name,
      style: input.style ?? snapshot.style,
      status: input.status ?? 'private',
      color: input.color ?? null,
    });
    return createBoard(scope, deps, file, noFiles());
  });
}

async function templateSnapshot(db: Db, deps: ServiceDeps, actor: Actor, id: BoardFromTemplate['templateId']) {
  if (typeof id === 'string') {
    const builtIn = builtInTemplates(deps.config.language).find((t) => t.id === id);
    if (!builtIn) throw templateMissing();
    return builtIn.snapshot;
  }
  const snapshot = await repo.findSnapshot(db, actor.id, id);
  if (snapshot === undefined) throw templateMissing();
  return JSON.parse(snapshot) as TemplateSnapshot;
}
