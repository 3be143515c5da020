import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { FieldType } from '../../../shared/api/fields.js';
import type { Actor } from '../../auth/actor.js';
import { nowIso } from '../../db/dialect.js';
import { BOARD_FILE_FORMAT, BOARD_FILE_VERSION } from '../board-export/board-file.js';

export type TemplateStyle = 'kanban' | 'todo';

export interface TemplateCard {
  name: string;
  /** Markdown, checklists included. */
  content: string;
  /** Label names the card wears. */
  labels: string[];
  /** Custom field values by the field's place in `TemplateSnapshot.fields` (older templates have none). */
  fields?: Record<string, string | number | boolean>;
}

export interface TemplateField {
  name: string;
  type: FieldType;
  options: string[];
  showOnCard: boolean;
}

/**
 * A board's structure without anything personal or dated: no people, no
 * dates, no comments, attachments or history; what is done is not kept
 * either (a template starts afresh).
 */
export interface TemplateSnapshot {
  style: TemplateStyle;
  /** The board's labels by name, in the order first used. */
  labels: string[];
  /** The board's custom fields in order (older templates have none). */
  fields?: TemplateField[];
  areas: Array<{ name: string; cards: TemplateCard[] }>;
}

export const cardCount = (snapshot: TemplateSnapshot) => snapshot.areas.reduce((n, a) => n + a.cards.length, 0);

/**
 * The snapshot as a board file, so that a board made from a template takes
 * the import's one road for creating a whole board (see board-import/board-import.ts).
 */
export interface NewBoard {
  name: string;
  style: TemplateStyle;
  status: 'private' | 'public';
  color: string | null;
}

export function toBoardFile(snapshot: TemplateSnapshot, actor: Actor, { name, style, status, color }: NewBoard): BoardFileInput {
  let cardId = 0;
  return {
    format: BOARD_FILE_FORMAT,
    formatVersion: BOARD_FILE_VERSION,
    serviceVersion: null,
    exportedAt: nowIso(),
    board: {
      id: 0,
      name,
      style,
      status,
      color,
      image: null,
      owner: { id: actor.id, name: '' },
      archivedAt: null,
    },
    members: [],
    labels: snapshot.labels.map((label, id) => ({ id, name: label })),
    fields: (snapshot.fields ?? []).map((field, id) => ({ id, ...field })),
    areas: snapshot.areas.map((area, areaIndex) => ({
      id: areaIndex,
      name: area.name,
      sort: areaIndex,
      archivedAt: null,
      cards: area.cards.map((card, sort) => ({
        id: cardId++,
        name: card.name,
        content: card.content,
        html: '',
        done: false,
        sort,
        dueDate: null,
        repeatEvery: null,
        assignees: [],
        assignee: null,
        labels: card.labels,
        archivedAt: null,
        reminders: [],
        attachments: [],
        comments: [],
        activity: [],
        fields: card.fields ?? {},
      })),
    })),
    images: {},
  };
}
