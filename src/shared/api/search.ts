import { Type, type Static } from 'typebox';
import { CardFields } from './fields.js';

/** A card found by `GET /api/data/search`, with where it sits. */
export const SearchHit = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  boardId: Type.Integer(),
  boardName: Type.String(),
  areaName: Type.String(),
  fields: CardFields,
});
export type SearchHit = Static<typeof SearchHit>;
