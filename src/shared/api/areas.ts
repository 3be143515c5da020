import { Type, type Static } from 'typebox';

export const Area = Type.Object({
  id: Type.Integer(),
  board: Type.Integer({ description: 'board id' }),
  name: Type.String(),
  sort: Type.Integer({ description: 'position among the visible areas of the board, from 0' }),
});
export type Area = Static<typeof Area>;
