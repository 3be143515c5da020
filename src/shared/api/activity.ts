import { Type, type Static } from 'typebox';
import { Person } from './cards.js';

/** One entry of a card's history, as `GET /api/data/card-activity` lists it. */
export const ActivityEntry = Type.Object({
  type: Type.String(),
  actor: Type.Union([Person, Type.Null()]),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  createdAt: Type.String(),
});
export type ActivityEntry = Static<typeof ActivityEntry>;
