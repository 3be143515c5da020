import type { Card, CardListItem } from '../../../shared/api/cards.js';
import type { CardFields } from '../../../shared/api/fields.js';
import { checklistOf } from '../../../shared/checklist.js';
import { toIso } from '../../db/dialect.js';
import { renderedHtml } from '../../markdown/rendered-html.js';
import type { CardRow } from '../../db/schema.js';

export interface CardPerson {
  id: string;
  name: string;
  image: string | null;
  type: string;
}

/** What a card row needs beside itself to be shown. */
export interface CardExtras {
  /** Position among the visible cards of its area. */
  position: number;
  labels: Array<{ id: number; name: string }>;
  assignees: CardPerson[];
  /** Custom field values by field id, only the set ones. */
  fields: CardFields;
}

export function presentListCard(row: CardRow, extras: CardExtras): CardListItem {
  const first = extras.assignees[0];
  return {
    id: row.id,
    area: row.areaId,
    name: row.name,
    content: row.content,
    status: row.status,
    sort: extras.position,
    dueDate: toIso(row.dueDate),
    repeatEvery: row.repeatEvery as CardListItem['repeatEvery'],
    ...(row.repeatEvery && row.repeatAnchor ? { repeatAnchor: toIso(row.repeatAnchor) } : {}),
    labels: extras.labels,
    assignees: extras.assignees,
    assignee: first?.id ?? null,
    assigneeName: first?.name ?? null,
    assigneeImage: first?.image ?? null,
    assigneeType: first?.type ?? null,
    checklist: checklistOf(row.content),
    fields: extras.fields,
  };
}

export function presentCard(row: CardRow, extras: CardExtras & { reminders: number[] }): Card {
  return {
    ...presentListCard(row, extras),
    boardId: row.boardId,
    html: renderedHtml({ kind: 'card', id: row.id, updatedAt: row.updatedAt }, row.content),
    reminders: extras.reminders,
    archivedAt: toIso(row.archivedAt),
  };
}
