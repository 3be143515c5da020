import type { CardListItem } from '../api/types';

/** A board tile's card as the server lists it: a plain open card unless `fields` say more. */
export function cardListItem(fields: Partial<CardListItem> & Pick<CardListItem, 'id'>): CardListItem {
  return {
    area: 1,
    name: `Card ${fields.id}`,
    content: '',
    status: 0,
    sort: 0,
    dueDate: null,
    repeatEvery: null,
    labels: [],
    assignees: [],
    assignee: null,
    assigneeName: null,
    assigneeImage: null,
    assigneeType: null,
    checklist: { done: 0, total: 0 },
    fields: {},
    ...fields,
  };
}
