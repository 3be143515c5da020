import { Type, type Static } from 'typebox';
import { Id } from './common.js';

/**
 * How a person groups a board's cards into swimlanes: by assignee, by label,
 * or by the options of one of the board's `select` custom fields
 * (`field:<fieldId>`); null shows no lanes.
 */
export const LANES_PATTERN = '^(assignee|label|field:[1-9][0-9]{0,9})$';

export const Lanes = Type.Union([Type.String({ pattern: LANES_PATTERN, maxLength: 16 }), Type.Null()], {
  description: '`assignee`, `label`, `field:<id of a select field of the board>`, or null for no lanes',
});
export type Lanes = Static<typeof Lanes>;

export const BoardView = Type.Object({ lanes: Lanes });
export type BoardView = Static<typeof BoardView>;

export const BoardViewUpdate = Type.Object({ boardId: Id, lanes: Lanes });
export type BoardViewUpdate = Static<typeof BoardViewUpdate>;

/** The kind of a lanes value, with the field's id for `field:<id>`; null for anything else. */
export function parseLanes(
  value: string | null | undefined,
): { by: 'assignee' } | { by: 'label' } | { by: 'field'; fieldId: number } | null {
  if (!value || !new RegExp(LANES_PATTERN).test(value)) return null;
  if (value === 'assignee' || value === 'label') return { by: value };
  return { by: 'field', fieldId: Number(value.slice('field:'.length)) };
}
