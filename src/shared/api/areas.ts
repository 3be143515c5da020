import { Type, type Static } from 'typebox';

export const Area = Type.Object({
  id: Type.Integer(),
  board: Type.Integer({ description: 'board id' }),
  name: Type.String(),
  sort: Type.Integer({ description: 'position among the visible areas of the board, from 0' }),
  wipLimit: Type.Union([Type.Integer({ minimum: 1, maximum: 999 }), Type.Null()], {
    description: 'work-in-progress limit: a soft cap on the visible cards of the area, or null for none',
  }),
});
export type Area = Static<typeof Area>;

/** A work-in-progress limit as a client sets it: 1–999, or null to remove it. */
export const WipLimit = Type.Union([Type.Integer({ minimum: 1, maximum: 999 }), Type.Null()]);
