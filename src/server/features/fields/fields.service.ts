import {
  FIELD_NAME_MAX_LENGTH,
  MAX_FIELDS,
  MAX_FIELD_OPTIONS,
  type CardFields,
  type CardFieldsUpdate,
  type Field,
  type FieldCreate,
  type FieldType,
  type FieldUpdate,
  type FieldValue,
} from '../../../shared/api/fields.js';
import type { Actor } from '../../auth/actor.js';
import { missing, requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard, type WriteScope } from '../../events/board-write.js';
import { badRequest } from '../../http/errors.js';
import { loadCard } from '../cards/cards.service.js';
import { findCard } from '../cards/cards.repository.js';
import * as repo from './fields.repository.js';
import type { FieldRow } from './fields.repository.js';
import { checkedValue } from './values.js';

export function presentField(row: FieldRow): Field {
  return {
    id: row.id,
    boardId: row.boardId,
    name: row.name,
    type: row.type as FieldType,
    options: row.options === null ? [] : (JSON.parse(row.options) as string[]),
    showOnCard: Boolean(row.showOnCard),
    sort: row.sort,
  };
}

/** The board's fields in order, without an access check (the caller has made its own). */
export async function boardFields(db: Db, boardId: number): Promise<Field[]> {
  return (await repo.boardFieldRows(db, boardId)).map(presentField);
}

export async function listFields(deps: ServiceDeps, actor: Actor, boardId: number): Promise<Field[]> {
  await requireBoard(deps.database.db, actor, boardId, 'read');
  return boardFields(deps.database.db, boardId);
}

function fieldName(raw: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > FIELD_NAME_MAX_LENGTH)
    throw badRequest(`body: name must be 1 to ${FIELD_NAME_MAX_LENGTH} characters after trimming`);
  return name;
}

/** A select field's options, trimmed, each 1–64 characters and distinct whatever their case; none for the other types. */
export function fieldOptions(type: FieldType, raw: readonly string[] | undefined): string[] {
  if (type !== 'select') {
    if (raw !== undefined && raw.length > 0) throw badRequest('body: options are only for select fields');
    return [];
  }
  const options = (raw ?? []).map((o) => o.trim());
  if (options.length < 1 || options.length > MAX_FIELD_OPTIONS)
    throw badRequest(`body: a select field needs 1 to ${MAX_FIELD_OPTIONS} options`);
  if (options.some((o) => o.length < 1 || o.length > FIELD_NAME_MAX_LENGTH))
    throw badRequest(`body: each option must be 1 to ${FIELD_NAME_MAX_LENGTH} characters after trimming`);
  if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
    throw badRequest('body: options must be distinct (whatever their case)');
  return options;
}

function refuseTakenName(fields: readonly FieldRow[], nameKey: string, except?: number): void {
  const taken = fields.find((f) => f.nameKey === nameKey && f.id !== except);
  if (taken) throw badRequest(`body: this board already has a field named "${taken.name}"`);
}

export async function createField(deps: ServiceDeps, actor: Actor, input: FieldCreate): Promise<Field> {
  const name = fieldName(input.name);
  const options = fieldOptions(input.type, input.options);
  return writeBoard(deps, actor, input.boardId, 'edit', async ({ trx, board, emit }) => {
    const fields = await repo.boardFieldRows(trx, board.id);
    if (fields.length >= MAX_FIELDS) throw badRequest(`TOO_MANY_FIELDS: a board has at most ${MAX_FIELDS} fields`);
    refuseTakenName(fields, name.toLowerCase());
    const row = await repo.insertFieldRow(trx, {
      boardId: board.id,
      name,
      nameKey: name.toLowerCase(),
      type: input.type,
      options: input.type === 'select' ? JSON.stringify(options) : null,
      showOnCard: input.showOnCard ? 1 : 0,
      sort: fields.length,
      createdAt: nowIso(),
    });
    const field = presentField(row);
    emit('field.created', { field });
    return field;
  });
}

/** A field of this board for a list filter; one of another board (or none) is the client's mistake. */
export async function fieldOfBoard(db: Db, boardId: number, id: number): Promise<Field> {
  const row = await repo.findFieldRow(db, id);
  if (!row || row.boardId !== boardId) throw badRequest('querystring: field must be a field of this board');
  return presentField(row);
}

/** The field's board, or 404 naming the field (the write checks access on that board). */
async function boardOfField(db: Db, id: number): Promise<number> {
  const row = await repo.findFieldRow(db, id);
  if (!row) throw missing('Field');
  return row.boardId;
}

/** The field as the write finds it under the board's lock: removed since, or on another board, it is missing. */
async function fieldOnBoard(trx: Db, boardId: number, id: number): Promise<FieldRow> {
  const row = await repo.findFieldRow(trx, id);
  if (!row || row.boardId !== boardId) throw missing('Field');
  return row;
}

/** Renames a field, changes its options, its place or whether tiles show it; its type never changes. */
export async function updateField(deps: ServiceDeps, actor: Actor, input: FieldUpdate): Promise<Field> {
  const boardId = await boardOfField(deps.database.db, input.id);
  return writeBoard(deps, actor, { boardId, subject: 'Field' }, 'edit', async (scope) => {
    const { trx, board, emit } = scope;
    const existing = await fieldOnBoard(trx, board.id, input.id);
    const type = existing.type as FieldType;
    if (input.type !== undefined && input.type !== type) throw badRequest('body: type cannot change (make a new field)');
    const changes: Parameters<typeof repo.updateFieldRow>[2] = {};
    const fields = await repo.boardFieldRows(trx, board.id);
    if (input.name !== undefined) {
      const name = fieldName(input.name);
      refuseTakenName(fields, name.toLowerCase(), existing.id);
      Object.assign(changes, { name, nameKey: name.toLowerCase() });
    }
    if (input.options !== undefined) {
      if (type !== 'select') throw badRequest('body: options are only for select fields');
      changes.options = JSON.stringify(fieldOptions(type, input.options));
    }
    if (input.showOnCard !== undefined) changes.showOnCard = input.showOnCard ? 1 : 0;
    const others = input.sort === undefined ? [] : await reorder(trx, fields, existing.id, input.sort);
    if (input.sort !== undefined) changes.sort = Math.min(input.sort, fields.length - 1);
    const row = Object.keys(changes).length > 0 ? await repo.updateFieldRow(trx, existing.id, changes) : existing;
    const field = presentField(row);
    emit('field.updated', { field });
    for (const other of others) emit('field.updated', { field: other });
    if (changes.options !== undefined) await followOptions(scope, field);
    return field;
  });
}

/** Puts the field at `position` and renumbers the others 0..n-1 around it; answers the others whose place changed. */
async function reorder(trx: Db, fields: readonly FieldRow[], id: number, position: number): Promise<Field[]> {
  const rest = fields.filter((f) => f.id !== id);
  const at = Math.min(position, rest.length);
  const changed: Field[] = [];
  for (const [i, f] of rest.entries()) {
    const sort = i < at ? i : i + 1;
    if (f.sort !== sort) changed.push(presentField(await repo.updateFieldRow(trx, f.id, { sort })));
  }
  return changed;
}

/**
 * After a select field's options change, its values follow: one whose
 * option is still there (in any case) takes the new spelling, one whose
 * option is gone is cleared. Each card changed is told as a card change.
 */
async function followOptions(scope: WriteScope, field: Field): Promise<void> {
  const { trx, emit } = scope;
  for (const { cardId, value } of await repo.valuesOfField(trx, field.id)) {
    const old = JSON.parse(value) as FieldValue;
    const option = field.options.find((o) => o.toLowerCase() === String(old).toLowerCase());
    if (option === old) continue;
    if (option === undefined) await repo.removeValue(trx, cardId, field.id);
    else await repo.putValue(trx, cardId, field.id, JSON.stringify(option));
    const row = await findCard(trx, cardId);
    if (row) emit('card.updated', { card: await loadCard(trx, row), fields: { [field.id]: option ?? null } });
  }
}

/** Removes a field with every card's value for it. */
export async function deleteField(deps: ServiceDeps, actor: Actor, id: number): Promise<void> {
  const boardId = await boardOfField(deps.database.db, id);
  await writeBoard(deps, actor, { boardId, subject: 'Field' }, 'edit', async ({ trx, board, emit }) => {
    const existing = await fieldOnBoard(trx, board.id, id);
    await repo.deleteFieldRow(trx, existing.id);
    const rest = await repo.boardFieldRows(trx, board.id);
    emit('field.deleted', { fieldId: existing.id });
    // The fields after it close the gap, so positions stay 0..n-1.
    for (const [i, f] of rest.entries())
      if (f.sort !== i) emit('field.updated', { field: presentField(await repo.updateFieldRow(trx, f.id, { sort: i })) });
  });
}

/**
 * Sets and clears a card's values (all checked before any is written: a
 * refusal changes nothing). Answers the values that actually changed, by
 * field id, null for a cleared one.
 */
export async function setCardFields(
  db: Db,
  boardId: number,
  cardId: number,
  input: CardFieldsUpdate,
): Promise<Array<{ field: Field; value: FieldValue | null }>> {
  const fields = new Map((await boardFieldRows(db, boardId)).map((f) => [String(f.id), presentField(f)]));
  const current = new Map((await repo.valueRowsOf(db, [cardId])).map((v) => [String(v.fieldId), v.value]));
  const writes: Array<{ field: Field; value: FieldValue | null }> = [];
  for (const [key, raw] of Object.entries(input)) {
    const field = fields.get(key);
    if (!field) throw badRequest(`body: fields/${key} is not a field of this board`);
    writes.push({ field, value: raw === null ? null : checkedValue(field, raw) });
  }
  const changed: Array<{ field: Field; value: FieldValue | null }> = [];
  for (const { field, value } of writes) {
    const stored = value === null ? undefined : JSON.stringify(value);
    if (stored === current.get(String(field.id))) continue;
    if (stored === undefined) await repo.removeValue(db, cardId, field.id);
    else await repo.putValue(db, cardId, field.id, stored);
    changed.push({ field, value });
  }
  return changed;
}

const boardFieldRows = repo.boardFieldRows;

/** The `fields` of each of these cards (only those with a value are in the map). */
export async function fieldValuesOf(db: Db, cardIds: readonly number[]): Promise<Map<number, CardFields>> {
  return cardFieldsOf(await repo.valueRowsOf(db, cardIds));
}

/** Values (as stored, JSON) turned into each card's `fields`. */
export function cardFieldsOf(rows: ReadonlyArray<{ cardId: number; fieldId: number; value: string }>): Map<number, CardFields> {
  const byCard = new Map<number, CardFields>();
  for (const { cardId, fieldId, value } of rows) {
    let fields = byCard.get(cardId);
    if (!fields) byCard.set(cardId, (fields = {}));
    fields[fieldId] = JSON.parse(value) as FieldValue;
  }
  return byCard;
}
